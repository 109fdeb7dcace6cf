import type { Server } from '@collie/protocol';

/** One line per watched tmux server the bridge has lost, so missing panes have a reason. */
export function ServerNotices({ servers }: { readonly servers: Iterable<Server> }) {
  const lost = [...servers].filter((server) => !server.connected);
  if (lost.length === 0) return null;
  return (
    <ul className="server-notices">
      {lost.map((server) => (
        <li key={server.name} className="server-notice">
          Lost tmux server “{server.name}”: its panes may be out of date.
        </li>
      ))}
    </ul>
  );
}
