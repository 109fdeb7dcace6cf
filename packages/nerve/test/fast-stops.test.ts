/**
 * Fast tier: the real Agent SDK against the testkit's scripted stand-in for the `claude`
 * stream-json CLI (`fake-agent/claude-stream-json.mjs`), for what the real binary cannot be
 * made to do on cue: a turn that does not end within 5 s of the interrupt.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '@collie/testkit';
import { SubagentSettings } from '../src/config/config';
import { Gateway } from '../src/gateway/gateway';
import { TURN_STOP_WAIT_MS } from '../src/session/session';
import { openDb } from '../src/store/db';
import { Store } from '../src/store/store';

const FAKE = join(repoRoot, 'packages/testkit/fake-agent/claude-stream-json.mjs');
const assistant = (content: unknown[]) => ({ type: 'assistant', message: { id: `msg_${Math.random().toString(16).slice(2)}`, role: 'assistant', model: 'fake', content }, parent_tool_use_id: null });

async function fastRig(turns: unknown[]) {
  const dir = await tempDir('nerve-fast-');
  const scriptFile = join(dir.path, 'script.json');
  await writeFile(scriptFile, JSON.stringify({ turns }));
  const store = new Store(openDb(join(dir.path, 'nerve.db')));
  const settings = SubagentSettings.parse({ progress_summaries: false });
  const gateway = new Gateway({ store, cwd: dir.path, model: 'fake', env: { ...process.env, FAKE_CLAUDE_SCRIPT: scriptFile }, settings: () => settings, claudePath: FAKE });
  return {
    gateway,
    store,
    async [Symbol.asyncDispose]() {
      gateway.close();
      store.db.close();
      await dir.remove();
    },
  };
}

const until = async (check: () => boolean, what: string, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('nerve stops against the scripted stream-json CLI', () => {
  it('a turn still running 5 s after the interrupt, with agents live, answers not_stopped and ends nothing; Force stop then ends all', async () => {
    await using rig = await fastRig([
      {
        frames: [
          assistant([{ type: 'tool_use', id: 'toolu_bg1', name: 'Agent', input: { description: 'Stuck helper', prompt: 'p', run_in_background: true } }]),
          { type: 'system', subtype: 'task_started', task_id: 'task_1', tool_use_id: 'toolu_bg1', description: 'Stuck helper', task_type: 'local_agent', is_backgrounded: true },
        ],
        end: false,
        ignoreInterrupt: true,
      },
    ]);
    const s = rig.gateway.create('stuck');
    s.send({ text: 'go', origin: 'api', sender: 'test' });
    await until(() => s.roster.list().some((r) => r.status === 'running'), 'the helper running');
    const helper = s.roster.list()[0]!;
    const t0 = Date.now();
    const answer = await s.stop('turn', 'tester');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(TURN_STOP_WAIT_MS - 50);
    expect(answer).toEqual({ outcome: 'not_stopped', live_agents: [helper.agent_id] });
    // Nothing was cancelled: the turn runs on and the helper lives.
    expect(s.isRunning).toBe(true);
    expect(s.hasRuntime).toBe(true);
    expect(s.roster.get(helper.agent_id)?.status).toBe('running');
    expect(rig.store.sessionEvents(s.id).map((e) => [e.name, e.requested_by, e.details.outcome])).toContainEqual(['stop_requested', 'tester', 'not_stopped']);

    expect(await s.stop('force', 'tester')).toEqual({ outcome: 'stopped', live_agents: [helper.agent_id] });
    expect(s.roster.get(helper.agent_id)).toMatchObject({ status: 'interrupted', reason: 'force_stop' });
    expect(s.isRunning).toBe(false);
  });

  it('with no live agents, a turn that does not end is cancelled after 5 s', async () => {
    await using rig = await fastRig([{ frames: [assistant([{ type: 'text', text: 'Thinking forever.' }])], end: false, ignoreInterrupt: true }]);
    const s = rig.gateway.create('stuck alone');
    s.send({ text: 'go', origin: 'api', sender: 'test' });
    await until(() => s.isRunning && s.hasRuntime, 'the turn');
    expect(await s.stop('turn', 'tester')).toEqual({ outcome: 'stopped', live_agents: [] });
    expect(s.isRunning).toBe(false);
    expect(s.hasRuntime).toBe(false);
  });
});
