/**
 * Fast tier: the real Agent SDK against the testkit's scripted stand-in for the `claude`
 * stream-json CLI (`fake-agent/claude-stream-json.mjs`), for what the real binary cannot be
 * made to do on cue: a turn that does not end within 5 s of the interrupt.
 */
import { describe, expect, it } from 'vitest';
import { TURN_STOP_WAIT_MS } from '../src/session/session';
import { assistant, fastRig, until } from './fast-kit';

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

  it('with no live agents, a turn that does not end is cancelled after 5 s; a queued message then runs', async () => {
    await using rig = await fastRig([{ frames: [assistant([{ type: 'text', text: 'Thinking forever.' }])], end: false, ignoreInterrupt: true }]);
    const s = rig.gateway.create('stuck alone');
    s.send({ text: 'go', origin: 'api', sender: 'test' });
    await until(async () => (await rig.received()).length === 1, 'the turn');
    expect(s.send({ text: 'after the stop', origin: 'api', sender: 'test' }).outcome).toBe('queued');
    expect(await s.stop('turn', 'tester')).toEqual({ outcome: 'stopped', live_agents: [] });
    // The stuck runtime was cancelled; the stop left the queue alone, and its message runs next on a new runtime.
    await until(async () => (await rig.received()).length === 2, 'the queued message');
    expect((await rig.received()).map((r) => r.text)).toEqual(['go', 'after the stop']);
    expect(s.queue.size).toBe(0);
    expect(s.isRunning).toBe(true);
    expect(s.hasRuntime).toBe(true);
  });
});
