import type { ReactNode } from 'react';
import type { Connection } from '../lib/events-client';
import { ConnectionIndicator } from './connection-indicator';
import { OfflineBanner } from './offline-banner';

/** The bar at the top of every page: where you are on the left, the connection on the right. */
export function TopBar({ children, connection }: { readonly children: ReactNode; readonly connection: Connection }) {
  return (
    <header className="topbar">
      <div className="topbar-row">
        <div className="topbar-start">{children}</div>
        <ConnectionIndicator connection={connection} />
      </div>
      <OfflineBanner />
    </header>
  );
}
