import { createServer, connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { peerUid } from '../src/http/peer-uid';

describe('peerUid over a real connection', () => {
  it("names this process's own uid as the owner of a loopback client's socket; an unknown peer is null", async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const accepted = new Promise<Socket>((r) => server.once('connection', r));
    const port = (server.address() as { port: number }).port;
    const client = connect(port, '127.0.0.1');
    const socket = await accepted;
    try {
      expect(peerUid(socket)).toBe(process.getuid!());
      expect(peerUid({ remoteAddress: socket.remoteAddress, remotePort: 1, localAddress: socket.localAddress, localPort: socket.localPort })).toBeNull();
      expect(peerUid({ remoteAddress: '127.0.0.1' })).toBeNull();
    } finally {
      client.destroy();
      socket.destroy();
      server.close();
    }
  });
});
