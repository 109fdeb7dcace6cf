/**
 * Fidelity tier: how a message reaches the runtime, with the real SDK and `claude`. A message
 * is its own turn, also when it arrives as the runtime wakes on its own for a background task
 * (the model never sees it inside that turn); the queue goes on after the runtime dies.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ApiRequest, Turn } from '@collie/testkit';
import { startRig, type Rig } from './harness';

const say = (text: string, durationMs = 0): Turn => ({ blocks: [{ type: 'text', text }], durationMs });
const lastUserMessage = (r: ApiRequest) => JSON.stringify((r.body as { messages: unknown[] }).messages.at(-1));

/** The `claude` processes this test's process started (the runtime). */
function runtimePids(): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && /claude/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))) found.push(Number(pid));
    } catch {
      // It ended while we looked.
    }
  }
  return found;
}

/** A session whose first turn runs for 30 s, with one message queued behind it. */
async function busyWithOneQueued(rig: Rig, queued: string) {
  rig.api.setFallback((req) => say(`Answering: ${req.prompt}`, 200));
  rig.api.script(() => say('A long answer.', 30_000));
  const s = rig.gateway.create();
  s.send({ text: 'first', origin: 'web', sender: 'ana' });
  await rig.api.waitForRequest((r) => r.kind === 'main' && r.prompt === 'first', 30_000);
  expect(s.send({ text: queued, origin: 'web', sender: 'ana' }).outcome).toBe('queued');
  return s;
}

describe('a message handed to the runtime', () => {
  it('waits for a turn the runtime woke into on its own, then runs as its own turn; the session stays running', async () => {
    await using rig = await startRig();
    rig.api.setFallback((req) => {
      if (req.prompt === 'kick') return { blocks: [{ type: 'text', text: 'Starting.' }, { type: 'tool_use', name: 'Agent', input: { description: 'quick one', prompt: 'Do it', run_in_background: true, subagent_type: 'general-purpose' } }] };
      // The wake-up for the agent's notification works on (a tool call, so the turn has a second request).
      if (lastUserMessage(req).includes('task-notification')) return { blocks: [{ type: 'text', text: 'Woke.' }, { type: 'tool_use', name: 'Bash', input: { command: 'sleep 2', description: 'wait' } }], durationMs: 500 };
      return say(`Answering: ${req.prompt}`, 300);
    });
    rig.api.script({ main: [], subagent: [() => say('Agent done.', 1_500)] });
    const s = rig.gateway.create();
    s.send({ text: 'kick', origin: 'web', sender: 'ana' });
    await rig.waitFor((f) => f.event.type === 'session.running' && !f.event.is_running);
    // The runtime wakes on its own; Nerve has not seen a frame of that turn yet.
    await rig.api.waitForRequest((r) => r.kind === 'main' && lastUserMessage(r).includes('task-notification'), 30_000);
    expect(s.isRunning).toBe(false);
    const at = rig.frames.length;
    expect(s.send({ text: 'the late word', origin: 'web', sender: 'ana' }).outcome).toBe('started');
    // Meanwhile another waits in Nerve's queue, where it can be cancelled or moved.
    expect(s.send({ text: 'one more word', origin: 'web', sender: 'ana' }).outcome).toBe('queued');

    const own = await rig.api.waitForRequest((r) => r.kind === 'main' && r.prompt === 'the late word', 30_000);
    await rig.api.waitForRequest((r) => r.kind === 'main' && r.prompt === 'one more word', 30_000);
    const mains = rig.api.requests.filter((r) => r.kind === 'main');
    // Not shown to the model inside the woken turn (the CLI's mid-turn system reminder).
    const before = mains.slice(0, mains.indexOf(own));
    expect(before.filter((r) => JSON.stringify(r.body).includes('the late word'))).toEqual([]);
    expect(mains.filter((r) => r.prompt === 'the late word')).toHaveLength(1);
    // The run lock stayed taken from the handover to the end of the message's own turn.
    const running = () => rig.frames.slice(at).flatMap((f) => (f.event.type === 'session.running' ? [f.event.is_running] : []));
    await rig.waitFor(() => running().length === 4, 30_000);
    expect(running()).toEqual([true, false, true, false]);
  });

  // Killed in its first turn, the runtime never wrote its conversation: the resume fails before
  // it takes the waiting message, which goes first again and runs on a new conversation.
  it('the queue goes on on a new runtime when the runtime dies mid-turn', async () => {
    const before = new Set(runtimePids());
    await using rig = await startRig();
    const s = await busyWithOneQueued(rig, 'waiting');
    const pids = runtimePids().filter((p) => !before.has(p));
    expect(pids).toHaveLength(1);
    process.kill(pids[0]!, 'SIGKILL');
    await rig.api.waitForRequest((r) => r.kind === 'main' && r.prompt === 'waiting', 30_000);
    expect(s.queue.size).toBe(0);
    // And a message after it runs too (the queue is not left behind a dead lock).
    await rig.waitFor((f) => f.event.type === 'session.running' && !f.event.is_running && !s.isRunning, 30_000);
    expect(s.send({ text: 'after', origin: 'web', sender: 'ana' }).outcome).toBe('started');
    await rig.api.waitForRequest((r) => r.kind === 'main' && r.prompt === 'after', 30_000);
  });

  it('a model switch ends a turn with no agents; the queued message runs on the new model', async () => {
    await using rig = await startRig();
    const s = await busyWithOneQueued(rig, 'on the new model');
    expect(s.setModel('claude-opus-4-5')).toEqual({ ok: true });
    const next = await rig.api.waitForRequest((r) => r.kind === 'main' && r.prompt === 'on the new model', 30_000);
    expect(next.model).toBe('claude-opus-4-5');
    expect(s.queue.size).toBe(0);
  });

  it('a runtime closed mid-turn, and the gateway closed mid-turn, leave no `claude` process', async () => {
    // Runtimes this worker process had before (another file's) are not this test's.
    const before = new Set(runtimePids());
    const rig = await startRig();
    rig.api.setFallback((req) => say(`Answering: ${req.prompt}`, 30_000));
    const s = rig.gateway.create();
    s.send({ text: 'first', origin: 'web', sender: 'ana' });
    await rig.api.waitForRequest((r) => r.kind === 'main' && r.prompt === 'first', 30_000);
    const old = runtimePids().find((p) => !before.has(p));
    // A force stop closes the runtime mid-turn; the next message starts another.
    await s.stop('force', 'ana');
    s.send({ text: 'second', origin: 'web', sender: 'ana' });
    await rig.api.waitForRequest((r) => r.kind === 'main' && r.prompt === 'second', 30_000);
    const both = runtimePids().filter((p) => !before.has(p));
    expect(both).toContain(old);
    expect(both).toHaveLength(2);
    await rig[Symbol.asyncDispose]();
    expect(runtimePids().filter((p) => both.includes(p))).toEqual([]);
  });
});
