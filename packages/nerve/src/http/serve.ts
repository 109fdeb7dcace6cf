/** Serves the API and the event socket on loopback. */
import { serve as honoServe } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Gateway } from '../gateway/gateway';
import { createApp } from './app';
import { eventsSocket } from './events-socket';
import { allowedHosts } from '@collie/protocol';

export interface Served {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function serveApi(gateway: Gateway, host: string, port: number, token: string): Promise<Served> {
  let hosts = new Set<string>();
  const app = createApp({ gateway, hosts: () => hosts, token });
  const events = eventsSocket(gateway, () => hosts, token);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = honoServe({ fetch: app.fetch, hostname: host === 'localhost' ? '127.0.0.1' : host, port }, () => resolve(s as Server));
    (s as Server).once('error', reject);
  });
  server.on('upgrade', (req, socket, head) => events.handleUpgrade(req, socket, head));
  const bound = (server.address() as AddressInfo).port;
  hosts = allowedHosts(bound, []);
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    close: async () => {
      events.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
