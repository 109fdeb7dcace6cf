/**
 * Force stop with a background shell, with the real SDK and `claude` binary: the shell ends
 * `interrupted (force_stop)` and its process does not outlive the runtime (the shell's own
 * `sleep`, found in /proc before the stop, is gone after it).
 */
import { describe, expect, it } from 'vitest';
import type { Turn } from '@collie/testkit';
import { processesWith, startRig } from './harness';

const say = (text: string, durationMs = 0): Turn => ({ blocks: [{ type: 'text', text }], durationMs });
const call = (name: string, input: Record<string, unknown>): Turn => ({ blocks: [{ type: 'tool_use', name, input }] });

describe('nerve force stop', () => {
  it('ends every live agent interrupted (force_stop) and leaves no shell process behind', async () => {
    await using rig = await startRig();
    // A number no other process on the machine sleeps for.
    const marker = `${300 + (process.pid % 500)}.${Date.now() % 1000}`;
    rig.api.script(() => call('Bash', { command: `sleep ${marker}`, description: 'A long shell', run_in_background: true }), () => say('The shell runs.', 60_000));
    const s = rig.gateway.create('force');
    s.send({ text: 'start a shell', origin: 'api', sender: 'test' });
    const shell = await rig.waitForAgent(s.id, (r) => r.kind === 'shell' && r.status === 'running');
    await expect.poll(() => processesWith(`sleep ${marker}`).length, { timeout: 30_000 }).toBeGreaterThan(0);

    const answer = await s.stop('force', 'tester');
    expect(answer).toEqual({ outcome: 'stopped', live_agents: [shell.agent_id] });
    expect(s.roster.get(shell.agent_id)).toMatchObject({ status: 'interrupted', reason: 'force_stop' });
    expect(s.isRunning).toBe(false);
    expect(s.hasRuntime).toBe(false);
    // The shell's process ends with the runtime.
    await expect.poll(() => processesWith(`sleep ${marker}`), { timeout: 30_000 }).toEqual([]);
    // The first final status wins: the runtime's late word on the stopped task changes nothing.
    expect(s.roster.get(shell.agent_id)).toMatchObject({ status: 'interrupted', reason: 'force_stop' });
    expect(rig.store.sessionEvents(s.id).map((e) => [e.name, e.requested_by])).toContainEqual(['force_stop_requested', 'tester']);
  });
});
