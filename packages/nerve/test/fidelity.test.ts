/**
 * Fidelity tier: the real Agent SDK and the real `claude` binary against the scripted Messages
 * API. Tool calls the script makes (Agent with run_in_background, background Bash) start real
 * tasks in the CLI; the roster must follow them exactly.
 */
import { describe, expect, it } from 'vitest';
import type { Turn } from '@collie/testkit';
import { startRig } from './harness';

const agentCall = (prompt: string, description: string, background = true): Turn => ({
  blocks: [{ type: 'text', text: 'Starting an agent.' }, { type: 'tool_use', name: 'Agent', input: { description, prompt, run_in_background: background, subagent_type: 'general-purpose' } }],
});
const say = (text: string, durationMs = 0): Turn => ({ blocks: [{ type: 'text', text }], durationMs });

describe('nerve with the real SDK and claude binary', () => {
  it('a background agent runs; Stop (turn) ends only the turn and the agent completes', async () => {
    await using rig = await startRig();
    rig.api.script({
      main: [() => agentCall('Count to three', 'Counting'), () => say('Still talking while the agent works.', 25_000)],
      subagent: [() => say('One, two, three.', 6_000)],
    });
    const s = rig.gateway.create('fidelity');
    expect(s.send({ text: 'Start a background agent', origin: 'api', sender: 'test' }).outcome).toBe('started');
    const rec = await rig.waitForAgent(s.id, (r) => r.status === 'running');
    expect(rec.agent_id).toMatch(/^ag_[0-9a-f]{12}$/);
    expect(rec.kind).toBe('agent');
    expect(rec.background).toBe(true);
    expect(rec.tool_use_id).toMatch(/^toolu_/);
    expect(rec.task_id).not.toBeNull();
    await rig.api.waitForRequest((r) => r.kind === 'main' && r.toolResults.length > 0, 60_000);
    expect(s.isRunning).toBe(true);
    expect(s.info().has_background_tasks).toBe(true);

    const answer = await s.stop('turn', 'tester');
    expect(answer.outcome).toBe('stopped');
    expect(s.isRunning).toBe(false);
    expect(s.roster.get(rec.agent_id)?.status).toBe('running');
    // Two facts: the turn ended, agents are still live.
    expect(s.info()).toMatchObject({ is_running: false, has_background_tasks: true, background_count: 1 });

    const done = await rig.waitForAgent(s.id, (r) => r.agent_id === rec.agent_id && r.status === 'completed', 90_000);
    expect(done.reason).toBeNull();
    expect(done.tokens).toBeGreaterThan(0);
    rig.gateway.tick();
    const stored = rig.store.agents(s.id).find((r) => r.agent_id === rec.agent_id);
    expect(stored?.status).toBe('completed');
    expect(rig.store.transcript(rec.agent_id).length).toBeGreaterThan(0);
    expect(rig.store.sessionEvents(s.id).map((e) => [e.name, e.requested_by, e.details.outcome])).toContainEqual(['stop_requested', 'tester', 'stopped']);
  });
});
