import type { Connection } from '../lib/events-client';

const WORDS: Readonly<Record<Connection, string>> = {
  connecting: 'Connecting',
  live: 'Live',
  reconnecting: 'Reconnecting',
};

/** Whether what the page shows is current: live, or waiting for the bridge to come back. */
export function ConnectionIndicator({ connection }: { readonly connection: Connection }) {
  return (
    <span className={`conn conn-${connection}`} role="status" aria-live="polite">
      <span className="conn-dot" aria-hidden="true" />
      {WORDS[connection]}
    </span>
  );
}
