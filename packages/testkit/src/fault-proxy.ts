import { type Socket, connect, createServer, type AddressInfo } from 'node:net';

/**
 * A loopback TCP relay between a crew member and its lead that a test can break on purpose:
 * cut every connection, refuse new ones, or let bytes through one way only (the lead's request
 * reaches the member, the member's answer is lost). TLS passes through untouched.
 */
export interface FaultProxy extends AsyncDisposable {
  /** `127.0.0.1:<port>`: the address a member is given for its lead. */
  readonly address: string;
  readonly port: number;
  /** Drops what the member (the connecting side) sends, from now until `heal`. */
  dropUp(): void;
  /**
   * Loses the answers: on each connection, once the connecting side has sent its second chunk
   * (past the TLS handshake, so its request gets through), what the target sends back is
   * dropped, from now until `heal`.
   */
  dropDown(): void;
  /** Drops every open connection and refuses new ones until `heal`. */
  cut(): void;
  /** Relays both ways again and accepts new connections. */
  heal(): void;
  close(): Promise<void>;
}

/**
 * @example
 * await using proxy = await startFaultProxy(leadPort);
 * proxy.dropUp(); // the member's reply is lost on the way
 * proxy.cut();
 * proxy.heal();
 */
export async function startFaultProxy(targetPort: number): Promise<FaultProxy> {
  let down = false;
  let up = true;
  let downOk = true;
  const open = new Set<Socket>();
  const server = createServer((member) => {
    if (down) return void member.destroy();
    const lead = connect(targetPort, '127.0.0.1');
    for (const [a, b] of [[member, lead], [lead, member]] as const) {
      open.add(a);
      a.on('close', () => {
        open.delete(a);
        b.destroy();
      });
      a.on('error', () => a.destroy());
    }
    let chunksUp = 0;
    member.on('data', (d: Buffer) => {
      chunksUp++;
      if (up) lead.write(d);
    });
    lead.on('data', (d: Buffer) => void ((downOk || chunksUp < 2) && member.write(d)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const cut = () => {
    down = true;
    for (const s of open) s.destroy();
  };
  const close = async () => {
    cut();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return {
    address: `127.0.0.1:${port}`,
    port,
    dropUp: () => void (up = false),
    dropDown: () => void (downOk = false),
    cut,
    heal: () => {
      down = false;
      up = true;
      downOk = true;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
