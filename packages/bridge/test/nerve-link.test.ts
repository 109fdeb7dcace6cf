/**
 * The bridge's way to Nerve: `/api/nerve/*` only for a paired device, answered
 * `nerve_unavailable` while no Nerve runs, forwarded with Nerve's token once one does, and
 * Nerve's events passed on as `nerve.event` (a real `startNerve`, a real bridge).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startBridge } from '@collie/bridge';
import { ErrorBody, SessionInfo } from '@collie/protocol';
import { tempDir, testBridgeOptions, testDevice } from '@collie/testkit';
import { startNerve } from '../../nerve/src/nerve';
import { until } from './harness';

describe('nerve through the bridge', () => {
  it('needs a paired device, says when Nerve is not running, forwards with its token and passes its events on', async () => {
    await using dir = await tempDir('bridge-nerve-');
    const state = join(dir.path, 'state');
    const device = await testDevice(state);
    await using bridge = await startBridge(testBridgeOptions(join(dir.path, 'no-tmux'), state, { nerveBackoff: { first: 50, max: 200 } }));
    const api = (path: string, init: RequestInit = {}, auth = true) => fetch(`${bridge.url}/api/nerve${path}`, { ...init, headers: { 'content-type': 'application/json', ...(auth ? device.headers : {}) } });

    const noDevice = await api('/sessions', {}, false);
    expect(noDevice.status).toBe(401);
    expect(ErrorBody.parse(await noDevice.json()).error.code).toBe('unauthorized');
    const none = await api('/sessions');
    expect(none.status).toBe(503);
    expect(ErrorBody.parse(await none.json()).error).toEqual({ code: 'nerve_unavailable', message: `bridge: Nerve is not running (no answer at the address in ${join(state, 'nerve', 'api.json')})` });
    expect((await api('/events')).status).toBe(404);

    // Nerve starts with its state where the bridge looks: <bridge state>/nerve.
    const config = join(dir.path, 'nerve.yaml');
    await writeFile(config, `listen:\n  port: 0\ncwd: ${dir.path}\n`);
    const nerve = await startNerve({ configFile: config, defaultStateDir: join(state, 'nerve') });
    try {
      await until(bridge.hub, 'the nerve link', (_h, e) => e?.type === 'nerve.link' && e.state === 'ready', 15_000);
      const created = await api('/sessions', { method: 'POST', body: JSON.stringify({ title: 'Through the bridge' }) });
      expect(created.status).toBe(201);
      const s = SessionInfo.parse(await created.json());
      expect(nerve.gateway.sessions.get(s.session_id)?.info().title).toBe('Through the bridge');
      // Nerve's own answers come back as it gave them.
      const bad = await api(`/sessions/${s.session_id}/stop`, { method: 'POST', body: '{"scope":"everything"}' });
      expect(bad.status).toBe(400);
      // A queued message typed on the phone is the phone's to cancel (the bridge names the sender).
      const q = nerve.gateway.sessions.get(s.session_id)!.queue;
      const item = q.admit({ text: 'later', origin: 'web', sender: 'phone' });
      if (item.outcome !== 'admitted') throw new Error('not admitted');
      q.push(item.item);
      const cancelled = await api(`/sessions/${s.session_id}/queue/${item.item.queue_id}`, { method: 'DELETE' });
      expect(await cancelled.json()).toEqual({ text: 'later' });
      // Nerve's events arrive in the bridge's stream.
      nerve.gateway.sessions.get(s.session_id)!.setTitle('renamed');
      nerve.gateway.emit({ type: 'session.running', session_id: s.session_id, is_running: false });
      await until(bridge.hub, 'a nerve event', (_h, e) => e?.type === 'nerve.event' && e.event.session_id === s.session_id, 15_000);
    } finally {
      await nerve.close();
    }
    await until(bridge.hub, 'the nerve link down', (_h, e) => e?.type === 'nerve.link' && e.state === 'down', 15_000);
  });
});
