import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { CLOSE_DEVICE_REVOKED, DevicesFile } from '@collie/protocol';
import { startTmux, tempDir } from '@collie/testkit';
import { devicesCommand } from '../src/commands/devices';
import { bridgeFor } from './harness';
import { EventsClient } from './ws-client';

/** The upgrade's HTTP status, or 101 when the socket opened. */
function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws'), { headers });
    ws.once('open', () => (ws.close(), resolve(101)));
    ws.once('unexpected-response', (_req, res) => (ws.terminate(), resolve(res.statusCode ?? 0)));
    ws.once('error', reject);
  });
}

describe('devices on a running bridge', () => {
  it('refuses the events socket at the upgrade without a device; a revocation by collie devices revoke closes the live socket at once', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-state');
    await tmux.newSession('work', { cmd: 'sh' });
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    const events = `${bridge.url}/api/events`;
    expect(await upgradeStatus(events)).toBe(401);
    expect(await upgradeStatus(events, { authorization: 'Bearer cd1_short' })).toBe(401);
    expect(await upgradeStatus(events, { cookie: `collie_device_00000000=${bridge.device.token}` })).toBe(401);
    expect(await upgradeStatus(events, bridge.device.headers)).toBe(101);

    // A device made by `collie token` while the bridge runs works at once.
    const { reply } = await devicesCommand(state.path, { op: 'token', name: 'phone-script' }, { url: '', publicUrl: null });
    if (reply.type !== 'token') throw new Error(reply.type);
    const auth = { authorization: `Bearer ${reply.token}` };
    const live = new EventsClient(events, auth);
    await live.opened;
    await live.next('hello', (m) => m.type === 'hello');
    const closed = new Promise<number>((resolve) => live.ws.once('close', (code) => resolve(code)));

    const revoked = await devicesCommand(state.path, { op: 'revoke', name: 'phone-script' }, { url: '', publicUrl: null });
    expect(revoked).toMatchObject({ bridge: true, reply: { type: 'revoked' } });
    expect(await closed).toBe(CLOSE_DEVICE_REVOKED);
    const after = await fetch(`${bridge.url}/api/snapshot`, { headers: auth });
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ error: { code: 'device_revoked' } });
    // The test's own device is untouched.
    expect((await fetch(`${bridge.url}/api/snapshot`, { headers: bridge.device.headers })).status).toBe(200);

    // On disk before the answer (so a kill -9 keeps it): hashes only, 0600, revoked marked.
    const file = join(state.path, 'devices.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(reply.token);
    expect(text).not.toContain(bridge.device.token);
    expect(DevicesFile.parse(JSON.parse(text)).devices.find((d) => d.name === 'phone-script')?.revokedAt).toEqual(expect.any(Number));
    expect((await stat(join(state.path, 'devices.sock'))).mode & 0o777).toBe(0o600);
  });

  it('audits pairings, wrong codes, the lock and revocations, never a token or a code', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-state');
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    const offer = await bridge.devices.createOffer();
    const pair = (body: unknown) => fetch(`${bridge.url}/api/pair`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const wrong = offer.code === 'ZZZZZZZZ' ? 'YYYYYYYY' : 'ZZZZZZZZ';
    for (let i = 0; i < 4; i++) expect((await pair({ code: wrong })).status).toBe(401);
    const locked = await pair({ code: wrong });
    expect(locked.status).toBe(429);
    expect(await locked.json()).toMatchObject({ error: { code: 'pairing_locked', message: expect.stringContaining('locked for 10 more minutes') } });
    // The right code too, while locked; the link still works (256 bits cannot be guessed).
    expect((await pair({ code: offer.code })).status).toBe(429);
    const byLink = await pair({ token: offer.token });
    expect(byLink.status).toBe(200);
    const replay = await pair({ token: offer.token });
    expect(await replay.json()).toMatchObject({ error: { code: 'pairing_failed', message: expect.stringContaining('already used') } });
    const cookie = byLink.headers.get('set-cookie') ?? '';
    const token = /=([^;]+)/.exec(cookie)![1]!;
    const list = await (await fetch(`${bridge.url}/api/devices`, { headers: { cookie: cookie.split(';')[0]! } })).json();
    const me = (list as { devices: { id: string; current: boolean }[] }).devices.find((d) => d.current)!;
    expect((await fetch(`${bridge.url}/api/devices/${me.id}/revoke`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: '{}' })).status).toBe(200);

    // Audit lines are appended after the answer goes out: wait for the last one to land.
    let audit = '';
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
      audit = await readFile(join(state.path, 'audit.log'), 'utf8');
      if (audit.includes('"device.revoked"')) break;
    }
    for (const secret of [offer.token, offer.code, token, bridge.device.token]) expect(audit).not.toContain(secret);
    const actions = audit.trim().split('\n').map((l) => (JSON.parse(l) as { action?: string; reason?: string }));
    expect(actions.filter((a) => a.action === 'pairing.failed' && a.reason === 'wrong_code')).toHaveLength(4);
    expect(actions.some((a) => a.action === 'pairing.locked')).toBe(true);
    expect(actions.some((a) => a.action === 'pairing.failed' && a.reason === 'used')).toBe(true);
    expect(actions.some((a) => a.action === 'device.paired')).toBe(true);
    expect(actions.some((a) => a.action === 'device.revoked')).toBe(true);
  });
});
