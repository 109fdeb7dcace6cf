import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEDUPE_MS, INTERNAL_LABEL, TurnQueue, type Incoming } from './turn-queue';

function rig() {
  let t = 0;
  let n = 0;
  const q = new TurnQueue(() => t, () => `q_${++n}`);
  const add = (m: Incoming) => {
    const a = q.admit(m);
    if (a.outcome === 'admitted') q.push(a.item);
    return a;
  };
  return { q, add, advance: (ms: number) => (t += ms) };
}

describe('turn queue', () => {
  it('lists a preview, origin and sender; internal triggers show a fixed label', () => {
    const { q, add } = rig();
    add({ text: 'please   look\nat this', origin: 'web', sender: 'ana' });
    add({ text: 'secret scheduled prompt', origin: 'internal' });
    expect(q.list()).toMatchObject([
      { preview: 'please look at this', origin: 'web', sender: 'ana' },
      { preview: INTERNAL_LABEL, origin: 'internal', sender: null },
    ]);
  });

  it('runs a client_msg_id once within 10 minutes', () => {
    const { q, add, advance } = rig();
    const first = add({ text: 'hi', origin: 'api', clientMsgId: 'c1' });
    expect(add({ text: 'hi', origin: 'api', clientMsgId: 'c1' })).toEqual({ outcome: 'duplicate', queue_id: first.outcome === 'admitted' ? first.item.queue_id : '' });
    advance(DEDUPE_MS + 1);
    expect(add({ text: 'hi', origin: 'api', clientMsgId: 'c1' }).outcome).toBe('admitted');
    expect(q.size).toBe(2);
  });

  it('only the sender cancels, and the text comes back', () => {
    const { q, add } = rig();
    add({ text: 'mine', origin: 'web', sender: 'ana' });
    expect(q.cancel('q_1', 'bob')).toEqual({ ok: false, code: 'not_sender' });
    expect(q.cancel('q_1', 'ana')).toEqual({ ok: true, text: 'mine' });
    expect(q.cancel('q_1', 'ana')).toEqual({ ok: false, code: 'not_found' });
  });

  it('reorders any message, whoever sent it; the first runs next', () => {
    const { q, add } = rig();
    for (const s of ['a', 'b', 'c']) add({ text: s, origin: 'web', sender: s });
    expect(q.reorder(['q_3'])).toEqual({ ok: true });
    expect(q.take()?.text).toBe('c');
    expect(q.reorder(['q_9']).ok).toBe(false);
    expect(q.reorder(['q_1', 'q_1']).ok).toBe(false);
  });

  it('reorder keeps every message exactly once (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12 }), fc.array(fc.string({ maxLength: 6 }), { maxLength: 15 }), (count, order) => {
        const { q, add } = rig();
        for (let i = 0; i < count; i++) add({ text: `m${i}`, origin: 'api' });
        const before = q.list().map((m) => m.queue_id).sort();
        const r = q.reorder(order);
        const after = q.list().map((m) => m.queue_id);
        expect([...after].sort()).toEqual(before);
        if (r.ok) expect(after.slice(0, order.length)).toEqual(order);
      }),
    );
  });
});
