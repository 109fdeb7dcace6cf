import type { Server, Socket } from 'node:net';

/**
 * Keeps every connection a server accepts, so that closing it ends them all: `server.close()`
 * alone resolves only once every connection has ended on its own, and a peer decides when that
 * is. A bridge told to stop then waited for good on a crew member whose stream was upgraded
 * while the listener closed (its TLS handshake still under way, so no HTTP list held it), on a
 * caller that was answered and never closed its side, or on one that connected and sent
 * nothing. Call it before `listen`. `close()` stops listening, ends every connection at once,
 * and resolves when the server has closed.
 */
export function closingServer(server: Server): { close(): Promise<void> } {
  const open = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    open.add(s);
    s.once('close', () => open.delete(s));
  });
  return {
    close: () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of open) s.destroy();
      return closed;
    },
  };
}
