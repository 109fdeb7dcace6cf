import type { Space } from '../lib/rank';
import { PaneRow } from './pane-row';

/** The panes of one space (tmux session), headed by its name and, when it matters, where it runs. */
export function SpaceSection({ space, showOrigin }: { readonly space: Space; readonly showOrigin: boolean }) {
  return (
    <section className="space" aria-label={`Space ${space.name}`}>
      <h2 className="section-title space-title">
        <span className="space-name">{space.name}</span>
        {showOrigin ? (
          <span className="space-origin">
            {space.machine} · tmux {space.server}
          </span>
        ) : null}
      </h2>
      <ul className="rows">
        {space.panes.map((pane) => (
          <PaneRow key={pane.id} pane={pane} />
        ))}
      </ul>
    </section>
  );
}
