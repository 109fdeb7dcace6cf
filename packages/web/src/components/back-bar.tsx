import type { Connection } from '../lib/events-client';
import { dashboardHref } from '../lib/routes';
import { TopBar } from './top-bar';

/**
 * The top bar of a page below the dashboard: a way back (to the panes, or `to` the page above,
 * such as a durable agent's list), and the connection.
 */
export function BackBar({ connection, to }: { readonly connection: Connection; readonly to?: { readonly href: string; readonly label: string } }) {
  return (
    <TopBar connection={connection}>
      <a className="back" href={to?.href ?? dashboardHref()}>
        <span aria-hidden="true">‹</span> {to?.label ?? 'Panes'}
      </a>
    </TopBar>
  );
}
