import { describe, expect, it } from 'vitest';
import type { Pane, SendReceipt } from '@collie/protocol';
import { EventHub, REPLAY_LIMIT } from './hub';

const pane = (id: string): Pane => ({
  id, address: `local/${id}#abcd`, token: 'abcd', server: 'default', tmuxId: '%1', machine: 'm', sessionId: '$0', sessionName: 's',
  windowId: '@0', windowIndex: 0, windowName: 'w', paneIndex: 0, active: true, cwd: '/', title: 't', command: 'bash', pid: 1,
  width: 80, height: 24, harness: 'shell', label: 't', state: 'unknown', since: 0, dialog: null, card: null, draft: null,
});

describe('event hub', () => {
  it('numbers events one by one and folds them into the snapshot', () => {
    const hub = new EventHub('m', 'run1', () => 42);
    const seen: number[] = [];
    hub.subscribe((e) => seen.push(e.seq));
    hub.publish({ type: 'pane.added', pane: pane('default:%1') });
    hub.publish({ type: 'pane.added', pane: pane('default:%2') });
    hub.publish({ type: 'pane.removed', id: 'default:%1' });
    expect(seen).toEqual([1, 2, 3]);
    const snap = hub.snapshot();
    expect(snap.seq).toBe(3);
    expect(snap.run).toBe('run1');
    expect(snap.panes.map((p) => p.id)).toEqual(['default:%2']);
  });

  it('replays what a client missed, and refuses what it no longer holds', () => {
    const hub = new EventHub('m', 'r');
    for (let i = 0; i < REPLAY_LIMIT + 10; i++) hub.publish({ type: 'pane.updated', pane: pane('default:%1') });
    expect(hub.since(hub.lastSeq)).toEqual([]);
    expect(hub.since(hub.lastSeq - 3)?.map((e) => e.seq)).toEqual([hub.lastSeq - 2, hub.lastSeq - 1, hub.lastSeq]);
    expect(hub.since(5)).toBeNull();
    expect(hub.since(hub.lastSeq + 1)).toBeNull();
    expect(hub.since(-1)).toBeNull();
  });

  it('keeps no receipts of a pane once it is gone and its sends have ended (panes made and killed leave nothing)', () => {
    const hub = new EventHub('m', 'r');
    const receipt = (paneId: string, requestId: string, final: boolean): SendReceipt => ({
      requestId, paneId, kind: 'text', summary: 'hi', state: final ? 'typed' : 'typing', outcome: final ? 'typed into the pane' : 'typing', final, createdAt: 1, updatedAt: 1,
    });
    for (let i = 0; i < 100; i++) {
      const id = `default:%${i}`;
      hub.publish({ type: 'pane.added', pane: pane(id) });
      hub.publish({ type: 'send.updated', receipt: receipt(id, `done-${i}`, true) });
      hub.publish({ type: 'send.updated', receipt: receipt(id, `open-${i}`, false) });
      hub.publish({ type: 'pane.removed', id });
      // Still under way: the snapshot keeps it, as a phone does, until it ends.
      expect(hub.snapshot().sends.map((r) => r.requestId)).toEqual([`open-${i}`]);
      hub.publish({ type: 'send.updated', receipt: receipt(id, `open-${i}`, true) });
    }
    expect(hub.sends.size).toBe(0);
    // Receipts of earlier runs come before their panes are found: they stay.
    hub.publish({ type: 'send.updated', receipt: receipt('default:%500', 'earlier', true) });
    expect(hub.snapshot().sends.map((r) => r.requestId)).toEqual(['earlier']);
    hub.publish({ type: 'pane.added', pane: pane('default:%1') });
    hub.publish({ type: 'send.updated', receipt: receipt('default:%1', 'live', true) });
    expect(hub.snapshot().sends.map((r) => r.requestId)).toEqual(['earlier', 'live']);
  });
});
