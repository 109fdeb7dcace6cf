import type { ChildProcess } from 'node:child_process';
import { connect as tcp, type Socket } from 'node:net';
import { connect as tls } from 'node:tls';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crewCli, freePort, startTmux, tempDir } from '@collie/testkit';
import { bridgeProcess } from './bridge-process';
import { CLI, walkyEnv } from './walky/kit';

/** tls.connect takes it (for its TLS socket) though its types leave it out. */
const halfOpen = { allowHalfOpen: true };

/** Resolves once `s` is connected; rejects on its error. */
const connected = (s: Socket, event = 'connect'): Promise<Socket> => new Promise((resolve, reject) => (s.once(event, () => resolve(s)), s.once('error', reject)));

/** Resolves with the exit of `c` after SIGTERM, or with 'still running' after `ms`. */
function termed(c: ChildProcess, ms: number): Promise<unknown> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('still running'), ms);
    c.once('exit', (code, signal) => (clearTimeout(timer), resolve({ code, signal })));
    c.kill('SIGTERM');
  });
}

// Found by a soak of the crew: a lead told to stop (SIGTERM) never exited, as its crew listener
// waited for a member's stream upgraded while it closed. Its listener and its local sockets
// waited the same way on any caller that holds its connection: one that connected and sent
// nothing, or was answered and never closed its side; so did the phone's port.
describe('a bridge told to stop ends every connection it holds', () => {
  it('exits on SIGTERM at once, with callers holding its crew listener, its phone port and its local sockets open', async () => {
    await using tmux = await startTmux();
    await using dir = await tempDir('collie-stop-held-');
    await tmux.newSession('s', { cmd: 'cat' });
    const state = join(dir.path, 'lead');
    const port = await freePort();
    const created = await crewCli(state, ['create', '--name', 'bluefin', '--listen', `127.0.0.1:${port}`]);
    expect(created.code, JSON.stringify(created)).toBe(0);
    const { child: lead, url } = await bridgeProcess({ ...process.env, TMUX_TMPDIR: tmux.tmpDir, COLLIE_NO_SYSTEMD: '1', ...walkyEnv(state) }, CLI);
    const held: Socket[] = [];
    let raw: Socket | undefined;
    try {
      // The crew listener: a connection whose TLS handshake never begins, and a refused stream
      // upgrade whose caller keeps its side open (the listener ends its own).
      await expect.poll(() => connected(tcp(port, '127.0.0.1')).then((s) => (s.destroy(), true), () => false), { timeout: 30_000 }).toBe(true);
      held.push(await connected(tcp({ port, host: '127.0.0.1' })));
      raw = await connected(tcp({ port, host: '127.0.0.1', allowHalfOpen: true }));
      const upgrade = await connected(tls({ socket: raw, rejectUnauthorized: false, ...halfOpen }), 'secureConnect');
      const refused = new Promise<string>((r) => upgrade.once('data', (d: Buffer) => r(d.toString())));
      upgrade.write('GET /crew/v1/stream HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n');
      expect(await refused).toMatch(/^HTTP\/1\.1 40\d Refused/);
      // `raw` is the same connection: its events go to the TLS socket now.
      held.push(upgrade);
      // The phone's port: an event stream upgrade without a device, refused, its caller half-open.
      const phone = await connected(tcp({ port: Number(new URL(url).port), host: '127.0.0.1', allowHalfOpen: true }));
      const phoneRefused = new Promise<string>((r) => phone.once('data', (d: Buffer) => r(d.toString())));
      phone.write(`GET /api/events HTTP/1.1\r\nHost: ${new URL(url).host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
      expect(await phoneRefused).toMatch(/^HTTP\/1\.1 40\d /);
      held.push(phone);
      // The pairing socket and the crew's ask socket: connected, and never a line.
      for (const path of [join(state, 'devices.sock'), join(state, 'crew', 'ask.sock')]) held.push(await connected(tcp(path)));

      // Its end of each: 'end' (a half-open caller keeps its own side) or 'close'.
      const gone = held.map((s) => new Promise<void>((r) => (s.destroyed || s.readableEnded ? r() : (s.once('end', () => r()), s.once('close', () => r())))));
      const exit = await termed(lead, 15_000);
      expect(exit).toEqual({ code: 0, signal: null });
      // The bridge ended each of them: none was left to time out.
      await Promise.all(gone);
    } finally {
      for (const s of held) s.destroy();
      raw?.destroy();
      if (lead.exitCode === null && lead.signalCode === null) lead.kill('SIGKILL');
    }
  });
});
