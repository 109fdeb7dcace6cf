import type { ResumePoint, SocketConn, SocketHandlers } from './events-deps';

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
  // An error is always followed by close; reconnecting is decided there, once.
  socket.onclose = () => handlers.onClose();
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
