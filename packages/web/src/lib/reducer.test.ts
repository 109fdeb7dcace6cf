import type { ModelEvent } from '@collie/protocol';
import { describe, expect, it } from 'vitest';
import { makePane, makeReceipt, makeServer, makeSnapshot } from '../../test/fixtures';
import { modelFromSnapshot } from './model';
import { applyEvent } from './reducer';

const start = () => modelFromSnapshot(makeSnapshot(4, [makePane({ id: 'default:%1' })]));

describe('applyEvent', () => {
  it('adds, updates and removes panes, advancing seq', () => {
    const added = applyEvent(start(), { type: 'pane.added', seq: 5, at: 0, pane: makePane({ id: 'default:%2' }) });
    expect([...added.panes.keys()]).toEqual(['default:%1', 'default:%2']);
    expect(added.seq).toBe(5);

    const updated = applyEvent(added, {
      type: 'pane.updated',
      seq: 6,
      at: 0,
      pane: makePane({ id: 'default:%2', state: 'blocked', dialog: 'permission' }),
    });
    expect(updated.panes.get('default:%2')?.state).toBe('blocked');

    const removed = applyEvent(updated, { type: 'pane.removed', seq: 7, at: 0, id: 'default:%1' });
    expect([...removed.panes.keys()]).toEqual(['default:%2']);
    expect(removed.seq).toBe(7);
  });

  it('adds, updates and removes servers', () => {
    let model = applyEvent(start(), { type: 'server.added', seq: 5, at: 0, server: makeServer('work') });
    model = applyEvent(model, { type: 'server.updated', seq: 6, at: 0, server: makeServer('work', false) });
    expect(model.servers.get('work')?.connected).toBe(false);
    model = applyEvent(model, { type: 'server.removed', seq: 7, at: 0, name: 'default' });
    expect([...model.servers.keys()]).toEqual(['work']);
  });

  it('never mutates the model it was given', () => {
    const before = start();
    const events: ModelEvent[] = [
      { type: 'pane.added', seq: 5, at: 0, pane: makePane({ id: 'default:%3' }) },
      { type: 'pane.removed', seq: 6, at: 0, id: 'default:%1' },
      { type: 'server.removed', seq: 7, at: 0, name: 'default' },
    ];
    for (const event of events) applyEvent(before, event);
    expect(before.seq).toBe(4);
    expect([...before.panes.keys()]).toEqual(['default:%1']);
    expect([...before.servers.keys()]).toEqual(['default']);
  });

  it('treats removing an unknown pane as a no-op that still advances seq', () => {
    const model = applyEvent(start(), { type: 'pane.removed', seq: 5, at: 0, id: 'nope' });
    expect(model.panes.size).toBe(1);
    expect(model.seq).toBe(5);
  });

  it('follows a send from the snapshot through its updates, newest last', () => {
    const held = makeReceipt({ requestId: 'r1', state: 'held', outcome: 'held: agent working', final: false, createdAt: 10, updatedAt: 10 });
    const older = makeReceipt({ requestId: 'r0', createdAt: 5 });
    let model = modelFromSnapshot(makeSnapshot(4, [makePane({ id: 'default:%1' })], undefined, 'run-a', [held, older]));
    expect(model.sends.get('default:%1')?.map((r) => r.requestId)).toEqual(['r0', 'r1']);

    const typed = { ...held, state: 'typed' as const, outcome: 'typed into the pane', final: true, updatedAt: 20 };
    model = applyEvent(model, { type: 'send.updated', seq: 5, at: 20, receipt: typed });
    model = applyEvent(model, { type: 'send.updated', seq: 6, at: 21, receipt: makeReceipt({ requestId: 'r2', kind: 'keys', createdAt: 21 }) });
    expect(model.seq).toBe(6);
    expect(model.sends.get('default:%1')?.map((r) => `${r.requestId} ${r.outcome}`)).toEqual([
      'r0 typed into the pane',
      'r1 typed into the pane',
      'r2 typed into the pane',
    ]);
  });

  it("forgets a removed pane's sends", () => {
    const model = modelFromSnapshot(makeSnapshot(4, [makePane({ id: 'default:%1' })], undefined, 'run-a', [makeReceipt({ requestId: 'r1' })]));
    const removed = applyEvent(model, { type: 'pane.removed', seq: 5, at: 0, id: 'default:%1' });
    expect(removed.sends.has('default:%1')).toBe(false);
    expect(model.sends.has('default:%1')).toBe(true);
  });
});
