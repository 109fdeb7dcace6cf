/**
 * Fidelity tier: the turn queue and a SendMessage resume, with the real SDK and `claude`.
 */
import { describe, expect, it } from 'vitest';
import type { ApiRequest, Turn } from '@collie/testkit';
import { startRig } from './harness';

const say = (text: string, durationMs = 0): Turn => ({ blocks: [{ type: 'text', text }], durationMs });

describe('turn queue and resume with the real SDK', () => {
  it('queues messages while a turn runs; the model never sees them early; the run lock goes to the first', async () => {
    await using rig = await startRig();
    rig.api.script(() => say('First turn, slowly.', 6_000), (req) => say(`Answering: ${req.prompt}`), (req) => say(`Answering: ${req.prompt}`));
    const s = rig.gateway.create();
    expect(s.send({ text: 'first message', origin: 'web', sender: 'ana' }).outcome).toBe('started');
    await rig.api.waitForRequest((r) => r.kind === 'main');
    const second = s.send({ text: 'second message', origin: 'web', sender: 'ana' });
    const third = s.send({ text: 'third message', origin: 'api', sender: 'bob', clientMsgId: 'c-1' });
    expect(second.outcome).toBe('queued');
    expect(s.send({ text: 'third message', origin: 'api', sender: 'bob', clientMsgId: 'c-1' })).toEqual({ outcome: 'duplicate', queue_id: third.queue_id });
    expect(s.cancelQueued(second.queue_id, 'bob')).toEqual({ ok: false, code: 'not_sender' });
    expect(s.reorderQueue([third.queue_id]).ok).toBe(true);
    expect(s.queue.list().map((q) => [q.preview, q.sender])).toEqual([['third message', 'bob'], ['second message', 'ana']]);

    const mains = () => rig.api.requests.filter((r) => r.kind === 'main');
    await rig.api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes('third message'), 60_000);
    await rig.api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes('second message'), 60_000);
    const first = mains()[0]!;
    expect(JSON.stringify(first.body)).not.toMatch(/second message|third message/);
    const order = mains().map((r: ApiRequest) => (r.prompt.includes('third') ? 'third' : r.prompt.includes('second') ? 'second' : 'first'));
    expect(order).toEqual(['first', 'third', 'second']);
    expect(rig.frames.some((f) => f.event.type === 'queue.update' && f.event.queue.length === 2)).toBe(true);
  });

  it('cancel by the sender brings the text back and it never runs', async () => {
    await using rig = await startRig();
    rig.api.script(() => say('Busy for a while.', 4_000));
    const s = rig.gateway.create();
    s.send({ text: 'hello', origin: 'web', sender: 'ana' });
    await rig.api.waitForRequest((r) => r.kind === 'main');
    const q = s.send({ text: 'never mind', origin: 'web', sender: 'ana' });
    expect(s.cancelQueued(q.queue_id, 'ana')).toEqual({ ok: true, text: 'never mind' });
    await rig.waitFor((f) => f.event.type === 'session.running' && !f.event.is_running);
    expect(rig.api.requests.some((r) => JSON.stringify(r.body).includes('never mind'))).toBe(false);
  });

  it('a SendMessage resume runs the finished agent again and counts the run', async () => {
    await using rig = await startRig();
    let agentRef = '';
    rig.api.script({
      main: [
        () => ({ blocks: [{ type: 'tool_use', name: 'Agent', input: { description: 'Resumable', prompt: 'Say done', run_in_background: true, subagent_type: 'general-purpose' } }] }),
        (req) => {
          agentRef = /agentId:\s*([A-Za-z0-9_-]+)/.exec(req.toolResults[0]?.text ?? '')?.[1] ?? '';
          return say('Started.');
        },
      ],
      subagent: [() => say('First run done.', 500), () => say('Second run done.', 500)],
    });
    const s = rig.gateway.create();
    s.send({ text: 'start', origin: 'api' });
    const rec = await rig.waitForAgent(s.id, (r) => r.status === 'completed', 60_000);
    expect(agentRef).not.toBe('');
    await rig.waitFor(() => !s.isRunning);
    rig.api.script(() => ({ blocks: [{ type: 'tool_use', name: 'SendMessage', input: { to: agentRef, message: 'Once more', summary: 'again' } }] }), () => say('Resumed it.'));
    s.send({ text: 'resume it', origin: 'api' });
    const again = await rig.waitForAgent(s.id, (r) => r.agent_id === rec.agent_id && r.runs === 2, 60_000);
    expect(again.status === 'running' || again.status === 'completed').toBe(true);
    await rig.waitForAgent(s.id, (r) => r.agent_id === rec.agent_id && r.runs === 2 && r.status === 'completed', 60_000);
    expect(s.roster.list()).toHaveLength(1);
  });
});
