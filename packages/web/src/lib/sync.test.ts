import type { ModelEvent } from '@collie/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makePane, makeSnapshot } from '../../test/fixtures';
import { modelFromSnapshot } from './model';
import { type SyncState, receive, startSync } from './sync';

const initial = (seq = 10) => startSync(modelFromSnapshot(makeSnapshot(seq, [makePane({ id: 'default:%1' })])));
const added = (seq: number, id = `default:%${seq}`): ModelEvent => ({ type: 'pane.added', seq, at: 0, pane: makePane({ id }) });

function feed(state: SyncState, ...messages: Parameters<typeof receive>[1][]): { state: SyncState; resync: boolean } {
  let current = { state, resync: false };
  for (const message of messages) {
    current = receive(current.state, message);
    if (current.resync) return current;
  }
  return current;
}

describe('sync', () => {
  it('streams after a resumed hello and applies events in order', () => {
    const { state, resync } = feed(initial(), { type: 'hello', run: 'run-a', seq: 12, resumed: true }, added(11), added(12));
    expect(resync).toBe(false);
    expect(state.phase).toBe('streaming');
    expect(state.model.seq).toBe(12);
    expect(state.model.panes.size).toBe(3);
  });

  it('asks for a resync on a gap in seq', () => {
    const result = feed(initial(), { type: 'hello', run: 'run-a', seq: 13, resumed: true }, added(11), added(13));
    expect(result.resync).toBe(true);
    expect(result.state.model.seq).toBe(11);
  });

  it('ignores events the model already holds (a replay overlapping the snapshot)', () => {
    const { state, resync } = feed(initial(), { type: 'hello', run: 'run-a', seq: 11, resumed: true }, added(9), added(10), added(11));
    expect(resync).toBe(false);
    expect(state.model.seq).toBe(11);
    expect([...state.model.panes.keys()]).toEqual(['default:%1', 'default:%11']);
  });

  it('replaces the model with the snapshot of sync.reset', () => {
    const snapshot = makeSnapshot(3, [makePane({ id: 'other:%9' })]);
    const { state, resync } = feed(initial(), { type: 'hello', run: 'run-a', seq: 3, resumed: false }, { type: 'sync.reset', snapshot }, added(4));
    expect(resync).toBe(false);
    expect(state.model.seq).toBe(4);
    expect([...state.model.panes.keys()]).toEqual(['other:%9', 'default:%4']);
  });

  it('asks for a resync when an event comes where the reset was promised', () => {
    expect(feed(initial(), { type: 'hello', run: 'run-a', seq: 20, resumed: false }, added(11)).resync).toBe(true);
  });

  it('asks for a resync when a "resumed" bridge is behind the client (it restarted)', () => {
    expect(feed(initial(10), { type: 'hello', run: 'run-a', seq: 2, resumed: true }).resync).toBe(true);
  });

  it('asks for a resync when a bridge of another run claims to resume', () => {
    expect(feed(initial(10), { type: 'hello', run: 'run-b', seq: 12, resumed: true }).resync).toBe(true);
  });

  it('takes the new run and its numbers from a reset after a bridge restart', () => {
    const snapshot = makeSnapshot(2, [], undefined, 'run-b');
    const { state } = feed(initial(10), { type: 'hello', run: 'run-b', seq: 2, resumed: false }, { type: 'sync.reset', snapshot }, added(3));
    expect(state.model.run).toBe('run-b');
    expect(state.model.seq).toBe(3);
  });

  it('ends at the last event of any in-order stream, whatever overlap it starts with', () => {
    fc.assert(
      fc.property(fc.nat(20), fc.nat(10), fc.nat(30), (since, overlap, count) => {
        const first = Math.max(1, since - overlap + 1);
        const events = Array.from({ length: since + count - first + 1 }, (_, i) => added(first + i));
        const result = feed(initial(since), { type: 'hello', run: 'run-a', seq: since + count, resumed: true }, ...events);
        expect(result.resync).toBe(false);
        expect(result.state.model.seq).toBe(since + count);
      }),
    );
  });
});
