import type { ResumePoint, SocketConn, SocketHandlers } from './events-deps';
import { CLOSE_DEVICE_REVOKED } from '@collie/protocol';
import { auth } from './auth-state';

/**
 * Opens `/api/events?since=<seq>&run=<run>` on the page's own origin (the CSP allows
 * `connect-src 'self'`), as `wss:` when the page came over https.
 */
export function openBrowserSocket(from: ResumePoint, handlers: SocketHandlers): SocketConn {
  const url = new URL('/api/events', window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('since', String(from.since));
  url.searchParams.set('run', from.run);
  const socket = new WebSocket(url);
  socket.onmessage = (event: MessageEvent<unknown>) => {
    if (typeof event.data === 'string') handlers.onMessage(event.data);
  };
  let opened = false;
  socket.onopen = () => (opened = true);
  // An error is always followed by close; reconnecting is decided there, once.
  socket.onclose = (event: CloseEvent) => {
    // 4401: the bridge removed this device. A socket refused before it opened may be a 401
    // at the upgrade (a browser cannot see the status): ask the bridge whether we are paired.
    if (event.code === CLOSE_DEVICE_REVOKED) auth.lost('This device was removed from Collie. Pair it again to come back.');
    else if (!opened) void auth.check();
    handlers.onClose();
  };
  return {
    send(text) {
      if (socket.readyState === WebSocket.OPEN) socket.send(text);
    },
    close() {
      socket.onmessage = null;
      socket.onclose = null;
      socket.close();
    },
  };
}
