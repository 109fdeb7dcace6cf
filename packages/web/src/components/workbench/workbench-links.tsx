import { changesHref } from '../../lib/routes';

/** The pane's work pages: its changes (later: its files). */
export function WorkbenchLinks({ paneId }: { readonly paneId: string }) {
  return (
    <nav className="workbench-links" aria-label="Work on this pane">
      <a className="workbench-link" href={changesHref(paneId)}>
        Changes
      </a>
    </nav>
  );
}
