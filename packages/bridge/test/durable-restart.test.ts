import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Snapshot, TapResult } from '@collie/protocol';
import { tempDir, testDevice } from '@collie/testkit';
import { bridgeProcess } from './bridge-process';
import { answerDropper, serveAgent, writeSources } from './durable-kit';

async function snapshotUntil<T>(url: string, headers: Record<string, string>, what: string, check: (s: Snapshot) => T | undefined): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const got = check(Snapshot.parse(await (await fetch(`${url}/api/snapshot`, { headers })).json()));
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function answer(url: string, headers: Record<string, string>, body: object): Promise<TapResult> {
  const res = await fetch(`${url}/api/durable/answer`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return TapResult.parse(((await res.json()) as { result: unknown }).result);
}

describe('one request id is delivered to a durable agent once, across kill -9 of the bridge', () => {
  it('a retry after a restart returns the first result and calls nothing', async () => {
    await using state = await tempDir('collie-durable');
    const config = join(state.path, 'config');
    const served = await serveAgent('socket', state.path);
    const relay = await answerDropper(served.source);
    await writeSources(config, [relay.source]);
    const env = { ...process.env, TMUX_TMPDIR: join(state.path, 'tmux'), COLLIE_STATE_DIR: join(state.path, 'state'), COLLIE_CONFIG_DIR: config };
    const c = served.agent.open({ title: 'T' });
    const q = c.ask({ kind: 'permission', title: 'Run it?', options: [{ id: 'y', action: 'allow', label: 'Yes' }] });
    const body = { agent: 'desk', conversationId: c.id, questionId: q.question.id, version: 0, answer: { kind: 'permission', option: 'y' }, request_id: 'once-1' };

    const { headers } = await testDevice(join(state.path, 'state'));
    const first = await bridgeProcess(env);
    try {
      await snapshotUntil(first.url, headers, 'the question', (s) => s.durable?.conversations.find((x) => x.questions.length === 1));
      expect((await answer(first.url, headers, body)).outcome).toBe('taken');
      expect(relay.answers()).toBe(1);
    } finally {
      first.child.kill('SIGKILL');
    }
    await new Promise((r) => first.child.once('exit', r));

    const second = await bridgeProcess(env);
    try {
      await snapshotUntil(second.url, headers, 'the agent ready', (s) => (s.durable?.agents.find((a) => a.state === 'ready') ? true : undefined));
      expect((await answer(second.url, headers, body)).outcome).toBe('taken');
      expect((await answer(second.url, headers, { ...body, request_id: 'once-2' })).outcome).toBe('already_answered');
      expect(relay.answers()).toBe(2); // once-1 once, once-2 once
      expect(await q).toMatchObject({ status: 'answered', requestId: 'once-1' });
    } finally {
      second.child.kill('SIGKILL');
    }
    await relay.close();
    await served.on.close();
  });
});
