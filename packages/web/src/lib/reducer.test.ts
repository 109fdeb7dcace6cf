import type { ModelEvent } from '@collie/protocol';
import { describe, expect, it } from 'vitest';
import { makePane, makeServer, makeSnapshot } from '../../test/fixtures';
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
});
