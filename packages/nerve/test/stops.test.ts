/**
 * Fidelity tier, the stop scopes: the real SDK and `claude` binary against the scripted
 * Messages API; background agents and shells are real tasks of the CLI.
 */
import { describe, expect, it } from 'vitest';
import type { Turn } from '@collie/testkit';
import { startRig } from './harness';

const call = (name: string, input: Record<string, unknown>): Turn => ({ blocks: [{ type: 'text', text: `Calling ${name}.` }, { type: 'tool_use', name, input }] });
const bgAgent = (description: string) => call('Agent', { description, prompt: `Do: ${description}`, run_in_background: true, subagent_type: 'general-purpose' });
const say = (text: string, durationMs = 0): Turn => ({ blocks: [{ type: 'text', text }], durationMs });

describe('stopping with the real SDK', () => {
  it('stops one agent; the turn and the other agent keep going', async () => {
    await using rig = await startRig();
    rig.api.script({
      main: [() => bgAgent('first'), () => bgAgent('second'), () => say('Both started.')],
      subagent: [() => say('first done', 40_000), () => say('second done', 40_000)],
    });
    const s = rig.gateway.create();
    s.send({ text: 'start two', origin: 'api' });
    await rig.waitFor((f) => f.event.type === 'session.running' && !f.event.is_running);
    const [a, b] = await Promise.all([
      rig.waitForAgent(s.id, (r) => r.name === 'first' && r.status === 'running'),
      rig.waitForAgent(s.id, (r) => r.name === 'second' && r.status === 'running'),
    ]);
    expect(await s.stopAgent(a.agent_id, 'tester')).toEqual([a.agent_id]);
    const stopped = await rig.waitForAgent(s.id, (r) => r.agent_id === a.agent_id && r.status === 'stopped');
    expect(stopped.reason).toBe('user');
    expect(s.roster.get(b.agent_id)?.status).toBe('running');
    expect(rig.store.sessionEvents(s.id).map((e) => [e.name, e.requested_by])).toContainEqual(['agent_stop_requested', 'tester']);
  });

  it('stop all ends every live agent and shell, then the turn', async () => {
    await using rig = await startRig();
    rig.api.script({
      main: [() => bgAgent('worker'), () => call('Bash', { command: 'sleep 60', description: 'Wait a minute', run_in_background: true }), () => say('Working on.', 30_000)],
      subagent: [() => say('worker done', 40_000)],
    });
    const s = rig.gateway.create();
    s.send({ text: 'start work', origin: 'api' });
    await rig.waitForAgent(s.id, (r) => r.kind === 'agent' && r.status === 'running');
    await rig.waitForAgent(s.id, (r) => r.kind === 'shell' && r.status === 'running');
    await rig.api.waitForRequest((r) => r.kind === 'main' && r.toolResults.some((t) => /background/i.test(t.text)) && r.seq > 0);
    const answer = await s.stop('all', 'tester');
    expect(answer.outcome).toBe('stopped');
    expect(answer.live_agents).toHaveLength(2);
    await rig.waitFor(() => s.roster.list().every((r) => r.status === 'stopped') && !s.isRunning);
    expect(s.roster.list().map((r) => [r.kind, r.reason]).sort()).toEqual([['agent', 'stop_all'], ['shell', 'stop_all']]);
  });

  it('without perTaskStopAffordance, Stop asks first and sends nothing', async () => {
    await using rig = await startRig({ per_task_stop_affordance: false });
    rig.api.script({ main: [() => bgAgent('fragile'), () => say('Talking a while.', 20_000)], subagent: [() => say('fragile done', 30_000)] });
    const s = rig.gateway.create();
    s.send({ text: 'go', origin: 'api' });
    const rec = await rig.waitForAgent(s.id, (r) => r.status === 'running');
    await rig.api.waitForRequest((r) => r.kind === 'main' && r.toolResults.length > 0);
    const answer = await s.stop('turn', 'tester');
    expect(answer).toEqual({ outcome: 'needs_confirmation', live_agents: [rec.agent_id] });
    expect(s.isRunning).toBe(true);
    expect(s.roster.get(rec.agent_id)?.status).toBe('running');
    // Force: the runtime goes; the agent ends as interrupted (force_stop).
    expect((await s.stop('force', 'tester')).outcome).toBe('stopped');
    expect(s.roster.get(rec.agent_id)).toMatchObject({ status: 'interrupted', reason: 'force_stop', attention: ['interrupted'] });
    expect(s.isRunning).toBe(false);
  });

  it('a background shell runs to completion; Stop with no turn running sends nothing', async () => {
    await using rig = await startRig();
    rig.api.script(() => call('Bash', { command: 'sleep 2; echo shell-finished', description: 'Short wait', run_in_background: true }), () => say('Started it.'));
    const s = rig.gateway.create();
    s.send({ text: 'run it', origin: 'api' });
    const rec = await rig.waitForAgent(s.id, (r) => r.kind === 'shell');
    expect(rec.name).toBe('Short wait');
    await rig.waitFor((f) => f.event.type === 'session.running' && !f.event.is_running);
    expect((await s.stop('turn', 'tester')).outcome).toBe('nothing_running');
    const done = await rig.waitForAgent(s.id, (r) => r.agent_id === rec.agent_id && r.status === 'completed', 60_000);
    expect(done.task_id).not.toBeNull();
  });
});
