/**
 * Idle reaping (`idle_reap_minutes`), with the real SDK and `claude` binary on the scripted
 * Messages API: a runtime with a live agent is never reaped; one with no turn, no queue and
 * no live agent is; the next message starts a new runtime on the same runtime session.
 */
import { describe, expect, it } from 'vitest';
import type { Turn } from '@collie/testkit';
import { startRig } from './harness';

const say = (text: string, durationMs = 0): Turn => ({ blocks: [{ type: 'text', text }], durationMs });
const bg = (description: string): Turn => ({ blocks: [{ type: 'tool_use', name: 'Agent', input: { description, prompt: description, run_in_background: true, subagent_type: 'general-purpose' } }] });

describe('nerve idle reaping', () => {
  it('never reaps a runtime with live agents; reaps an idle one; the next message resumes', async () => {
    // null while the session gets going; 0 below: "idle for any time at all" at the next tick.
    let reap: number | null = null;
    await using rig = await startRig({}, { idleReapMinutes: () => reap });
    rig.api.script({ main: [() => bg('keeper'), () => say('The keeper runs.')], subagent: [() => say('kept', 10 * 60_000)] });
    const s = rig.gateway.create('idle');
    s.send({ text: 'start the keeper', origin: 'api', sender: 'test' });
    const keeper = await rig.waitForAgent(s.id, (r) => r.name === 'keeper' && r.status === 'running');
    await rig.waitFor((f) => f.event.type === 'session.running' && f.event.session_id === s.id && !f.event.is_running, 60_000);
    expect(s.hasRuntime).toBe(true);

    reap = 0;
    rig.gateway.tick();
    // A live agent keeps its runtime: reaping would end it.
    expect(s.hasRuntime).toBe(true);
    expect(s.roster.get(keeper.agent_id)?.status).toBe('running');

    await s.stopAgent(keeper.agent_id, 'test');
    await rig.waitForAgent(s.id, (r) => r.agent_id === keeper.agent_id && r.status === 'stopped', 60_000);
    reap = 60;
    rig.gateway.tick();
    // Idle for less than an hour: kept.
    expect(s.hasRuntime).toBe(true);
    reap = 0;
    rig.gateway.tick();
    expect(s.hasRuntime).toBe(false);
    // Nothing was live, so nothing was marked: the keeper's own stop stands.
    expect(s.roster.get(keeper.agent_id)).toMatchObject({ status: 'stopped', reason: 'user' });

    // The next message starts a new runtime on the same runtime session: the model sees the history.
    reap = null;
    rig.api.script(() => say('Back again.'));
    expect(s.send({ text: 'after the reap', origin: 'api', sender: 'test' }).outcome).toBe('started');
    const req = await rig.api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes('after the reap'), 60_000);
    expect(JSON.stringify(req.body)).toContain('start the keeper');
    expect(s.hasRuntime).toBe(true);
  });
});
