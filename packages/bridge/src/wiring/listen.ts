import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import type { eventsSocket } from '../http/events-socket';
import type { BridgeOptions } from './options';
import { closingServer } from '../config/closing-server';

/**
 * Serves the app and the events socket on `o.host:o.port`. A port that is taken, or any other
 * failure to listen, rejects in words after `onFail` has stopped what was started.
 */
export async function listenHttp(o: BridgeOptions, app: Hono, events: ReturnType<typeof eventsSocket>, onFail: () => void): Promise<{ http: HttpServer; port: number; url: string; close(): Promise<void> }> {
  const http: HttpServer = createServer(getRequestListener(app.fetch));
  http.on('upgrade', events.handleUpgrade);
  http.on('clientError', (_err, socket) => socket.destroy());
  // Stopping ends every connection: requests, phones' sockets, refused upgrades held half-open.
  const closing = closingServer(http);
  await new Promise<void>((resolve, reject) => {
    http.once('error', (err: NodeJS.ErrnoException) => {
      onFail();
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(`collie: ${o.host}:${o.port} is taken (another bridge? see \`collie status\`); set COLLIE_PORT or --port, or 0 for a free port`)
          : new Error(`collie: cannot listen on ${o.host}:${o.port}: ${err.message}`),
      );
    });
    http.listen(o.port, o.host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  return { http, port, url: `http://${host}:${port}`, close: closing.close };
}
