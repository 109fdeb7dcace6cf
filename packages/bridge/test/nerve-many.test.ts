/**
 * The bridge follows more than one Nerve: `COLLIE_NERVE_API` names one Nerve's api.json and a
 * folder of Nerve state dirs, where a second Nerve starts later. Two real `startNerve` gateways,
 * a real bridge: each Nerve's sessions are listed and reached through `/api/nerve`, a new session
 * goes where `?nerve=` says, each Nerve's events and link state come through, and a Nerve that
 * stops answers `nerve_unavailable` for its own sessions only.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startBridge } from '@collie/bridge';
import { ErrorBody, NerveListAnswer, SessionInfo } from '@collie/protocol';
import { tempDir, testBridgeOptions, testDevice } from '@collie/testkit';
import { startNerve } from '../../nerve/src/nerve';
import { until } from './harness';

describe('the bridge and several Nerves', () => {
  it('lists and reaches every Nerve’s sessions, creates where asked, passes each one’s events and link state on', async () => {
    await using dir = await tempDir('bridge-nerves-');
    const state = join(dir.path, 'state');
    const device = await testDevice(state);
    const config = join(dir.path, 'nerve.yaml');
    await writeFile(config, `listen:\n  port: 0\ncwd: ${dir.path}\n`);
    const folder = join(dir.path, 'nerves');
    await mkdir(folder);
    const alpha = await startNerve({ configFile: config, defaultStateDir: join(dir.path, 'alpha') });
    let beta: Awaited<ReturnType<typeof startNerve>> | null = null;
    try {
      await using bridge = await startBridge(testBridgeOptions(join(dir.path, 'no-tmux'), state, { nerveApiFile: `${join(dir.path, 'alpha', 'api.json')}:${folder}`, nerveBackoff: { first: 50, max: 200 } }));
      const api = async (path: string, init: RequestInit = {}) => {
        const res = await fetch(`${bridge.url}/api/nerve${path}`, { ...init, headers: { 'content-type': 'application/json', ...device.headers } });
        return { status: res.status, body: (await res.json()) as unknown };
      };
      // Alpha ran before the bridge: its link may be up before anyone listens, so ask.
      await expect.poll(async () => NerveListAnswer.parse((await api('/nerves')).body).nerves, { timeout: 15_000 }).toEqual([{ name: 'alpha', state: 'ready' }]);

      // A second Nerve starts later in the folder: found at the next look, followed.
      beta = await startNerve({ configFile: config, defaultStateDir: join(folder, 'beta') });
      await until(bridge.hub, 'beta linked', (_h, e) => e?.type === 'nerve.link' && e.nerve === 'beta' && e.state === 'ready', 20_000);
      expect(NerveListAnswer.parse((await api('/nerves')).body).nerves).toEqual([
        { name: 'alpha', state: 'ready' },
        { name: 'beta', state: 'ready' },
      ]);

      // A new session goes to the Nerve named, else to the first configured.
      const onBeta = await api('/sessions?nerve=beta', { method: 'POST', body: JSON.stringify({ title: 'On beta' }) });
      expect(onBeta.status).toBe(201);
      const b = SessionInfo.parse(onBeta.body);
      expect(beta.gateway.sessions.has(b.session_id)).toBe(true);
      expect(alpha.gateway.sessions.has(b.session_id)).toBe(false);
      const a = SessionInfo.parse((await api('/sessions', { method: 'POST', body: JSON.stringify({ title: 'On alpha' }) })).body);
      expect(alpha.gateway.sessions.has(a.session_id)).toBe(true);
      const gamma = await api('/sessions?nerve=gamma', { method: 'POST', body: '{}' });
      expect(gamma.status).toBe(404);
      expect(ErrorBody.parse(gamma.body).error.message).toBe('bridge: no Nerve named "gamma" (followed: alpha, beta)');

      // A session made on a Nerve directly (the bridge never saw it) is found there.
      const direct = beta.gateway.create('Made on beta');
      expect(SessionInfo.parse((await api(`/sessions/${direct.id}`)).body).title).toBe('Made on beta');
      // Every Nerve's sessions, in one list.
      const titles = (await api('/sessions')).body as { sessions: SessionInfo[] };
      expect(titles.sessions.map((s) => s.title).sort()).toEqual(['Made on beta', 'On alpha', 'On beta']);
      // A session's routes reach its own Nerve.
      expect((await api(`/sessions/${a.session_id}`, { method: 'PATCH', body: JSON.stringify({ title: 'Renamed on alpha' }) })).status).toBe(200);
      expect(alpha.gateway.sessions.get(a.session_id)?.info().title).toBe('Renamed on alpha');
      expect((await api(`/sessions/${b.session_id}/agents`)).body).toEqual({ agents: [] });
      const nobody = await api('/sessions/ses_nobody/agents');
      expect(nobody.status).toBe(404);
      expect(ErrorBody.parse(nobody.body).error).toEqual({ code: 'not_found', message: 'bridge: no Nerve holds session ses_nobody' });

      // Each Nerve's events come through.
      beta.gateway.emit({ type: 'session.running', session_id: b.session_id, is_running: false });
      alpha.gateway.emit({ type: 'session.running', session_id: a.session_id, is_running: false });
      await until(bridge.hub, "beta's event", (_h, e) => e?.type === 'nerve.event' && e.event.session_id === b.session_id, 15_000);
      await until(bridge.hub, "alpha's event", (_h, e) => e?.type === 'nerve.event' && e.event.session_id === a.session_id, 15_000);

      // Beta stops: its sessions answer nerve_unavailable, alpha's still work.
      await beta.close();
      beta = null;
      await until(bridge.hub, 'beta down', (_h, e) => e?.type === 'nerve.link' && e.nerve === 'beta' && e.state === 'down', 15_000);
      const gone = await api(`/sessions/${b.session_id}`);
      expect(gone.status).toBe(503);
      expect(ErrorBody.parse(gone.body).error).toEqual({ code: 'nerve_unavailable', message: `bridge: Nerve 'beta' is not running (no answer at the address in ${join(folder, 'beta', 'api.json')})` });
      expect(SessionInfo.parse((await api(`/sessions/${a.session_id}`)).body).title).toBe('Renamed on alpha');
      expect(((await api('/sessions')).body as { sessions: SessionInfo[] }).sessions.map((s) => s.session_id)).toEqual([a.session_id]);
      expect(NerveListAnswer.parse((await api('/nerves')).body).nerves).toEqual([
        { name: 'alpha', state: 'ready' },
        { name: 'beta', state: 'down' },
      ]);
    } finally {
      await beta?.close();
      await alpha.close();
    }
  });
});
