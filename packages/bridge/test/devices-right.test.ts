import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLOSE_DEVICE_CHANGED, Device, DevicesFile } from '@collie/protocol';
import { collieCli, startTmux, tempDir } from '@collie/testkit';
import { bridgeFor } from './harness';
import { EventsClient } from './ws-client';

const Listed = (json: unknown) => (json as { devices: unknown[] }).devices.map((d) => Device.parse(d));

describe('a device that may only watch, through the real CLI and a running bridge', () => {
  it('collie pair --watch-only pairs a watch-only browser; collie devices set --may-send|--watch-only changes it at once, with --json and exit codes', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-state');
    await tmux.newSession('work', { cmd: 'cat' });
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    const cli = (args: string[]) => collieCli(state.path, args, { COLLIE_PORT: String(bridge.port) });

    const offer = await cli(['pair', '--watch-only', '--json']);
    expect(offer.code, offer.stderr).toBe(0);
    expect(offer.json).toMatchObject({ maySend: false, url: expect.stringContaining('#/pair/cp1_') });
    expect((offer.json as { lines: string[] }).lines.join('\n')).toContain('will be watch-only');
    const token = /#\/pair\/(cp1_[A-Za-z0-9_-]+)/.exec((offer.json as { url: string }).url)![1]!;
    const paired = await fetch(`${bridge.url}/api/pair`, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (iPhone) Safari/604.1' }, body: JSON.stringify({ token }) });
    expect(paired.status).toBe(200);
    expect(await paired.json()).toMatchObject({ device: { maySend: false, current: true } });
    const cookie = (paired.headers.get('set-cookie') ?? '').split(';')[0]!;
    const name = 'Safari on iPhone';

    // Reads work; a send is refused with its code, and the refusal is in the audit log.
    const pane = [...bridge.hub.panes.values()][0]!;
    const sendOnce = () => fetch(`${bridge.url}/api/panes/${encodeURIComponent(pane.id)}/send`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ text: 'hello', request_id: `r-${Date.now()}` }) });
    expect((await fetch(`${bridge.url}/api/snapshot`, { headers: { cookie } })).status).toBe(200);
    const refused = await sendOnce();
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'device_may_not_send' } });
    await expect.poll(async () => readFile(join(state.path, 'audit.log'), 'utf8'), { timeout: 10_000 }).toContain('"code":"device_may_not_send"');

    // The phone reads its right in the hello.
    const live = new EventsClient(`${bridge.url}/api/events`, { cookie });
    await live.opened;
    expect(await live.next('hello', (m) => m.type === 'hello')).toMatchObject({ maySend: false });

    const listed = await cli(['devices', 'list', '--json']);
    expect(listed.code).toBe(0);
    expect(Listed(listed.json).find((d) => d.name === name)).toMatchObject({ maySend: false });
    expect((await cli(['devices', 'list'])).stdout).toMatch(new RegExp(`${name}\\s+browser\\s+watch only`));

    // --may-send: the open socket closes to reconnect, and the next hello says so; sends pass.
    const closed = new Promise<number>((resolve) => live.ws.once('close', (code) => resolve(code)));
    const set = await cli(['devices', 'set', name, '--may-send', '--json']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.json).toMatchObject({ ok: true, changed: true, bridge: true, device: { name, maySend: true } });
    expect(await closed).toBe(CLOSE_DEVICE_CHANGED);
    const again = new EventsClient(`${bridge.url}/api/events`, { cookie });
    await again.opened;
    expect(await again.next('hello', (m) => m.type === 'hello')).toMatchObject({ maySend: true });
    again.ws.close();
    expect((await sendOnce()).status).not.toBe(403);
    const same = await cli(['devices', 'set', name, '--may-send']);
    expect(same).toMatchObject({ code: 0, stdout: `'${name}' was already may send.\n` });
    const back = await cli(['devices', 'set', name, '--watch-only']);
    expect(back).toMatchObject({ code: 0, stdout: `'${name}' is now watch only.\n` });
    expect((await sendOnce()).status).toBe(403);

    // Usage errors exit 2, no such device 3; nothing changes.
    for (const args of [['devices', 'set', name], ['devices', 'set', name, '--watch-only', '--may-send'], ['devices', 'set', '--may-send']]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('usage: collie devices set');
    }
    const none = await cli(['devices', 'set', 'no such phone', '--may-send', '--json']);
    expect(none.code).toBe(3);
    expect(none.json).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect((await cli(['devices', 'set', 'no such phone', '--may-send'])).stderr).toContain("no paired device is called 'no such phone'");
    expect(Listed((await cli(['devices', 'list', '--json'])).json).find((d) => d.name === name)).toMatchObject({ maySend: false });
  });

  it('with no bridge: collie token --watch-only and collie devices set change the file; a devices.json from before send rights keeps every device able to send', async () => {
    await using state = await tempDir('collie-state');
    const cli = (args: string[]) => collieCli(state.path, args);
    const made = await cli(['token', '--name', 'dashboard tv', '--watch-only']);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toContain("Device 'dashboard tv' paired, watch only");
    const file = join(state.path, 'devices.json');
    expect(DevicesFile.parse(JSON.parse(await readFile(file, 'utf8'))).devices[0]).toMatchObject({ name: 'dashboard tv', maySend: false });
    const set = await cli(['devices', 'set', 'dashboard tv', '--may-send', '--json']);
    expect(set).toMatchObject({ code: 0, json: { ok: true, changed: true, bridge: false, device: { maySend: true } } });

    // A file written before rights existed: no maySend field anywhere.
    const old = JSON.parse(await readFile(file, 'utf8')) as { devices: Record<string, unknown>[]; offers: Record<string, unknown>[] };
    for (const d of old.devices) delete d['maySend'];
    await writeFile(file, JSON.stringify(old), { mode: 0o600 });
    expect(Listed((await cli(['devices', 'list', '--json'])).json)).toEqual([expect.objectContaining({ name: 'dashboard tv', maySend: true })]);
  });
});
