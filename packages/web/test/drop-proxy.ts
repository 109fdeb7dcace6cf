import { type Socket, connect, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A loopback TCP relay in front of a bridge, which a test can cut like a phone losing its network. */
export interface DropProxy extends AsyncDisposable {
  readonly url: string;
  readonly port: number;
  /** Relays new connections to the bridge on `port`. */
  target(port: number): void;
  /** Drops every open connection and refuses new ones until `resume`. */
  cut(): void;
  resume(): void;
  close(): Promise<void>;
}

/**
 * Starts the relay on a free loopback port. The page is loaded through it, so its fetches
 * and its events socket all pass here; the bridge must allow `127.0.0.1:<port>` as a Host.
 *
 * @example
 * await using proxy = await startDropProxy();
 * proxy.target(bridge.port);
 * proxy.cut(); // the page sees its socket drop and starts reconnecting
 * proxy.resume();
 */
export async function startDropProxy(): Promise<DropProxy> {
  let targetPort = 0;
  let down = false;
  const open = new Set<Socket>();
  const track = (socket: Socket, peer: Socket): void => {
    open.add(socket);
    socket.on('close', () => {
      open.delete(socket);
      peer.destroy();
    });
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    if (down || targetPort === 0) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    track(client, upstream);
    track(upstream, client);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const cut = (): void => {
    down = true;
    for (const socket of open) socket.destroy();
  };
  const close = async (): Promise<void> => {
    cut();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    target: (next) => void (targetPort = next),
    cut,
    resume: () => void (down = false),
    close,
    [Symbol.asyncDispose]: close,
  };
}
