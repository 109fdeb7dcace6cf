import type { SendReceipt, SendState } from '@collie/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeReceipt } from '../../test/fixtures';
import { RECEIPTS_PER_PANE, dropPane, findReceipt, latest, putReceipt, receiptsFrom } from './receipts';

const ids = (list: readonly SendReceipt[] | undefined) => (list ?? []).map((r) => r.requestId);

describe('putReceipt', () => {
  it('keeps one receipt per request id, updated in place, newest last', () => {
    let sends = putReceipt(new Map(), makeReceipt({ requestId: 'a', state: 'held', outcome: 'held: agent working', final: false, createdAt: 1 }));
    sends = putReceipt(sends, makeReceipt({ requestId: 'b', state: 'queued', final: false, createdAt: 2 }));
    sends = putReceipt(sends, makeReceipt({ requestId: 'a', state: 'typed', createdAt: 1, updatedAt: 5 }));
    expect(ids(sends.get('default:%1'))).toEqual(['a', 'b']);
    expect(findReceipt(sends, 'default:%1', 'a')?.outcome).toBe('typed into the pane');
  });

  it('keeps panes apart', () => {
    let sends = putReceipt(new Map(), makeReceipt({ requestId: 'a', paneId: 'default:%1' }));
    sends = putReceipt(sends, makeReceipt({ requestId: 'b', paneId: 'default:%2' }));
    expect(ids(sends.get('default:%1'))).toEqual(['a']);
    expect(ids(sends.get('default:%2'))).toEqual(['b']);
    expect(findReceipt(sends, 'default:%2', 'a')).toBeNull();
  });

  it(`drops the oldest beyond ${RECEIPTS_PER_PANE} per pane`, () => {
    const many = Array.from({ length: RECEIPTS_PER_PANE + 3 }, (_, i) => makeReceipt({ requestId: `r${i}`, createdAt: i }));
    const sends = receiptsFrom(many);
    expect(ids(sends.get('default:%1'))).toEqual(many.slice(3).map((r) => r.requestId));
  });

  it('never lets a replayed pending update step back over a final one', () => {
    const typed = makeReceipt({ requestId: 'a', state: 'typed', updatedAt: 9 });
    const sends = putReceipt(new Map([['default:%1', [typed]]]), makeReceipt({ requestId: 'a', state: 'held', final: false, updatedAt: 12 }));
    expect(findReceipt(sends, 'default:%1', 'a')).toBe(typed);
  });

  it('holds its invariants for any order of updates', () => {
    const states: SendState[] = ['queued', 'held', 'typing', 'typed', 'not_sent', 'not_submitted'];
    const update = fc.record({
      requestId: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'),
      paneId: fc.constantFrom('s:%1', 's:%2'),
      state: fc.constantFrom(...states),
      updatedAt: fc.nat(1000),
    });
    fc.assert(
      fc.property(fc.array(update, { maxLength: 60 }), (updates) => {
        let sends = receiptsFrom([]);
        for (const u of updates) {
          const final = u.state === 'typed' || u.state === 'not_sent' || u.state === 'not_submitted';
          // A request's creation time is fixed: derive it from its id.
          const createdAt = u.requestId.charCodeAt(0);
          sends = putReceipt(sends, makeReceipt({ ...u, final, createdAt, outcome: u.state }));
        }
        for (const [paneId, list] of sends) {
          expect(list.length).toBeLessThanOrEqual(RECEIPTS_PER_PANE);
          expect(new Set(ids(list)).size).toBe(list.length);
          expect(list.every((r) => r.paneId === paneId)).toBe(true);
          const created = list.map((r) => r.createdAt);
          expect(created).toEqual([...created].sort((x, y) => x - y));
          // Once a request is final on the phone, it stays final.
          for (const r of list) {
            const seenFinal = updates.some((u) => u.requestId === r.requestId && u.paneId === paneId && ['typed', 'not_sent', 'not_submitted'].includes(u.state));
            if (seenFinal) expect(r.final).toBe(true);
          }
        }
      }),
    );
  });
});

describe('dropPane', () => {
  it("forgets a pane's receipts and leaves the others", () => {
    const sends = receiptsFrom([makeReceipt({ requestId: 'a', paneId: 's:%1' }), makeReceipt({ requestId: 'b', paneId: 's:%2' })]);
    const after = dropPane(sends, 's:%1');
    expect([...after.keys()]).toEqual(['s:%2']);
    expect(dropPane(after, 's:%9')).toBe(after);
  });
});

describe('latest', () => {
  it('prefers a final reading, then the later one', () => {
    const held = makeReceipt({ requestId: 'a', state: 'held', final: false, updatedAt: 3 });
    const queued = makeReceipt({ requestId: 'a', state: 'queued', final: false, updatedAt: 1 });
    const typed = makeReceipt({ requestId: 'a', state: 'typed', updatedAt: 2 });
    expect(latest(held, queued)).toBe(held);
    expect(latest(queued, held)).toBe(held);
    expect(latest(held, typed)).toBe(typed);
    expect(latest(null, queued)).toBe(queued);
    expect(latest(queued, null)).toBe(queued);
    expect(latest(null, null)).toBeNull();
  });
});
