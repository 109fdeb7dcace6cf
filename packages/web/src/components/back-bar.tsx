import type { Connection } from '../lib/events-client';
import { dashboardHref } from '../lib/routes';
import { TopBar } from './top-bar';

/** The top bar of a page below the dashboard: a way back to the panes, and the connection. */
export function BackBar({ connection }: { readonly connection: Connection }) {
  return (
    <TopBar connection={connection}>
      <a className="back" href={dashboardHref()}>
        <span aria-hidden="true">‹</span> Panes
      </a>
    </TopBar>
  );
}
