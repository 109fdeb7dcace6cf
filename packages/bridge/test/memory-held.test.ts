import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { OUTCOME, type Pane, type SendReceipt } from '@collie/protocol';
import { tempDir } from '@collie/testkit';
import { EventHub, REPLAY_LIMIT } from '../src/events/hub';
import { KEEP, ReceiptStore } from '../src/send/receipt-store';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => (gc(), gc(), process.memoryUsage().heapUsed);

describe('what the bounded stores hold at their bounds', () => {
  it(`the receipt store at KEEP (${KEEP}) sends`, async () => {
    await using dir = await tempDir('collie-receipts-');
    const s = await ReceiptStore.open(dir.path);
    const before = heap();
    for (let i = 0; i < KEEP + 500; i++) {
      const r: SendReceipt = { requestId: `soak-${i}-${Math.random().toString(36).slice(2)}`, paneId: `collie-soak:%${i % 200}`, kind: 'text', summary: `soak send ${i} to the agent, a line of the usual length`, state: 'typed', outcome: OUTCOME.typed, final: true, createdAt: i, updatedAt: i };
      await s.put({ receipt: r, fingerprint: s.fingerprint('text', `t${i}`), leftHash: s.fingerprint('left', `l${i}`) });
    }
    const after = heap();
    console.log(`receipt store: ${s.size} receipts, ${((after - before) / 1e6).toFixed(2)} MB heap, ${((after - before) / s.size).toFixed(0)} B each`);
    expect(s.size).toBe(KEEP);
    await s.close();
  }, 120_000);

  it(`the event hub's replay buffer at REPLAY_LIMIT (${REPLAY_LIMIT}) events of 200 agent panes`, () => {
    const hub = new EventHub('m', 'r');
    const panes = Array.from({ length: 200 }, (_, i) => agentPane(i));
    const before = heap();
    for (let i = 0; i < REPLAY_LIMIT + 500; i++) {
      const p = panes[i % panes.length]!;
      // As the tracker publishes: a new object each update (its state, its draft).
      hub.publish({ type: 'pane.updated', pane: { ...p, state: i % 3 ? 'idle' : 'working', since: i, draft: i % 5 ? null : `draft ${i}` } });
    }
    const after = heap();
    const events = hub.since(hub.lastSeq - REPLAY_LIMIT)!.length;
    console.log(`event buffer: ${events} events, ${((after - before) / 1e6).toFixed(2)} MB heap, ${((after - before) / events).toFixed(0)} B each`);
    expect(events).toBe(REPLAY_LIMIT);
  });
});

/** An agent pane as the soak's are: a Claude Code stand-in with a label, a cwd and usage. */
function agentPane(i: number): Pane {
  return {
    id: `collie-soak:%${i}`, address: `local/collie-soak:%${i}#ab${String(i).padStart(2, '0').slice(-2)}`, token: `ab${String(i).padStart(2, '0').slice(-2)}`, server: 'collie-soak', tmuxId: `%${i}`, machine: 'bench',
    sessionId: `$${i % 20}`, sessionName: `soak-${i % 20}`, windowId: `@${i}`, windowIndex: i % 10, windowName: 'claude', paneIndex: 0, active: true,
    cwd: `/home/bench/work/project-${i % 20}`, title: '✳ Claude Code', command: 'claude', pid: 10_000 + i, width: 120, height: 40, harness: 'claude',
    label: `project-${i % 20}#main`, state: 'idle', since: 0, dialog: null, card: null, draft: null,
    usage: { model: 'claude-sonnet-4-5', contextTokens: 41_000, contextWindow: 200_000, windowFrom: 'table', sessionTokens: 350_000, source: 'transcript', at: 0 },
  };
}
