/**
 * Background shells and their processes, with the real SDK and `claude` binary: each stop
 * that takes ends the shell's process, and after Stop all no shell the session started is
 * left in /proc, whichever way each one ended (stopped alone, done on its own, or by Stop all).
 */
import { describe, expect, it } from 'vitest';
import type { Turn } from '@collie/testkit';
import { processesWith, startRig } from './harness';

const say = (text: string, durationMs = 0): Turn => ({ blocks: [{ type: 'text', text }], durationMs });
const shell = (name: string, secs: number): Turn => ({ blocks: [{ type: 'text', text: `Starting ${name}.` }, { type: 'tool_use', name: 'Bash', input: { command: `sleep ${secs}; echo ${name}`, description: name, run_in_background: true } }] });

describe('background shells in /proc', () => {
  it('a shell stopped alone and the rest by Stop all leave no process behind', async () => {
    await using rig = await startRig();
    const mark = `shp${process.pid}x${Date.now() % 100_000}`;
    const names = [0, 1, 2].map((k) => `${mark}-${k}-long`);
    rig.api.script({ main: [() => shell(names[0]!, 900), () => shell(names[1]!, 900), () => shell(`${mark}-q-quick`, 1), () => shell(names[2]!, 900), () => say('All four started.')] });
    const s = rig.gateway.create('shells');
    s.send({ text: 'start four shells', origin: 'api', sender: 'test' });
    const recs = await Promise.all(names.map((n) => rig.waitForAgent(s.id, (r) => r.name === n && r.status === 'running')));
    await expect.poll(() => processesWith(mark).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    await rig.waitForAgent(s.id, (r) => r.name === `${mark}-q-quick` && r.status === 'completed');

    expect(await s.stopAgent(recs[1]!.agent_id, 'tester')).toEqual([recs[1]!.agent_id]);
    await rig.waitForAgent(s.id, (r) => r.agent_id === recs[1]!.agent_id && r.status === 'stopped');
    await expect.poll(() => processesWith(names[1]!), { timeout: 15_000 }).toEqual([]);

    await rig.waitFor(() => !s.isRunning);
    const answer = await s.stop('all', 'tester');
    expect(answer.outcome).toBe('stopped');
    expect(answer.live_agents.sort()).toEqual([recs[0]!.agent_id, recs[2]!.agent_id].sort());
    await rig.waitFor(() => s.roster.live().length === 0);
    await expect.poll(() => processesWith(mark), { timeout: 15_000 }).toEqual([]);
  });
});
