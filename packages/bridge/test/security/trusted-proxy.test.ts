/**
 * Replays the attack on `COLLIE_TRUSTED_USER`: another local user sends the trusted login in
 * `Tailscale-User-Login` from loopback (where every local process connects from) and drives a
 * pane. Only the proxy's own user (`COLLIE_TRUSTED_PROXY_USER`; here the test's own uid) may.
 */
import { execFile } from 'node:child_process';
import { chmod, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import { startBridge } from '../../src/bridge';
import { until } from '../harness';
import { EventsClient } from '../ws-client';

const run = promisify(execFile);
const LOGIN = 'me@example.com';
const NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups'];

/** curl as another local user (uid 65534); the HTTP status it got. */
async function curlAsNobody(args: string[]): Promise<string> {
  const { stdout } = await run('setpriv', [...NOBODY, 'curl', '-s', '-o', '/dev/null', '-w', '%{http_code}', '--max-time', '10', ...args]);
  return stdout;
}

const canSwitchUser = process.getuid?.() === 0;

describe.skipIf(!canSwitchUser)('a proxy login counts only from the proxy user (attack replay)', () => {
  for (const host of ['127.0.0.1', '::1']) {
    it(`bridge on ${host}: another local user with the trusted login gets 401 on HTTP and the event socket; the proxy's user gets in`, async () => {
      await using tmux = await startTmux();
      await using state = await tempDir('collie-proxy-');
      await using out = await tempDir('collie-proxy-out-');
      await chmod(out.path, 0o777);
      await tmux.newSession('work', { cmd: 'sh' });
      await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { host, trustedUser: LOGIN, trustedProxyUid: process.getuid!() }));
      const pane = await until(bridge.hub, 'the sh pane', (h) => [...h.panes.values()][0]);
      const send = `${bridge.url}/api/panes/${encodeURIComponent(pane.id)}/send`;
      const body = (text: string, id: string) => JSON.stringify({ text, request_id: id });
      const attack = join(out.path, 'attack');
      const headers = ['-H', `Tailscale-User-Login: ${LOGIN}`, '-H', 'content-type: application/json'];

      // Another local user: the login header, loopback, and nothing else to show.
      expect(await curlAsNobody([...headers, '-X', 'POST', send, '-d', body(`id > ${attack}`, 'attack-1')])).toBe('401');
      expect(await curlAsNobody([...headers, `${bridge.url}/api/snapshot`])).toBe('401');
      const upgrade = ['-H', 'Connection: Upgrade', '-H', 'Upgrade: websocket', '-H', 'Sec-WebSocket-Version: 13', '-H', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=='];
      expect(await curlAsNobody([...headers, ...upgrade, `${bridge.url}/api/events`])).toBe('401');

      // The proxy's own user is let in, on HTTP and on the event socket.
      const done = join(out.path, 'done');
      const ok = await fetch(send, { method: 'POST', headers: { 'tailscale-user-login': LOGIN, 'content-type': 'application/json' }, body: body(`echo done > ${done}`, 'proxy-1') });
      expect(ok.status).toBe(200);
      const live = new EventsClient(`${bridge.url}/api/events`, { 'tailscale-user-login': LOGIN });
      await live.opened;
      await live.next('hello', (m) => m.type === 'hello');
      live.ws.close();
      const list = await fetch(`${bridge.url}/api/devices`, { headers: { 'tailscale-user-login': LOGIN } });
      expect(await list.json()).toMatchObject({ via: { kind: 'proxy', login: LOGIN } });
      expect((await fetch(`${bridge.url}/api/snapshot`, { headers: { 'tailscale-user-login': 'you@example.com' } })).status).toBe(401);
      await expect.poll(() => readFile(done, 'utf8').catch(() => ''), { timeout: 15_000 }).toBe('done\n');
      // The proxy's send ran after the attacker's; the attacker's command never did.
      await expect(stat(attack)).rejects.toMatchObject({ code: 'ENOENT' });
    }, 60_000);
  }

  it('with no proxy user configured, the default is root: a non-root local user is refused', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-proxy-');
    await tmux.newSession('work', { cmd: 'sh' });
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { trustedUser: LOGIN }));
    expect(await curlAsNobody(['-H', `Tailscale-User-Login: ${LOGIN}`, `${bridge.url}/api/snapshot`])).toBe('401');
    expect((await fetch(`${bridge.url}/api/snapshot`, { headers: { 'tailscale-user-login': LOGIN } })).status).toBe(200);
  }, 60_000);
});
