import type { Pane } from '@collie/protocol';
import { paneHref } from '../lib/routes';
import { HARNESS_WORDS } from '../lib/words';
import { Elapsed } from './elapsed';
import { PaneFlags } from './pane-flags';
import { StatePill } from './state-pill';

/** One pane on the dashboard; the whole row opens the pane. */
export function PaneRow({ pane }: { readonly pane: Pane }) {
  return (
    <li>
      <a className={`row row-${pane.state}`} href={paneHref(pane.id)}>
        <span className="row-main">
          <span className="row-label">{pane.label}</span>
          <span className="row-meta">
            {HARNESS_WORDS[pane.harness]} · {pane.machine} · {pane.windowIndex}:{pane.windowName}
          </span>
          <PaneFlags pane={pane} />
        </span>
        <span className="row-side">
          <StatePill state={pane.state} />
          <Elapsed since={pane.since} />
        </span>
      </a>
    </li>
  );
}
