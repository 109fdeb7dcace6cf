/**
 * The state disk full: the bridge goes on. The 60-minute soak filled the state disk to its last
 * megabyte with a receipt log of 1.1 MB, and the bridge died: the log's rewrite after a send
 * (which drops the texts of ended sends) failed with ENOSPC, and nothing caught it. The built
 * bridge here runs with its state on a 4 MB tmpfs (testkit smallDisk), a log of the last day's
 * receipts bigger than the room left, and a stand-in agent in a tmux of the same namespace.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OUTCOME, ReceiptBody } from '@collie/protocol';
import { claudePaneReady } from './bridge-process';
import { smallDiskDesk } from './small-disk-rig';

describe('the state disk full', () => {
  it('the bridge goes on sending, keeps every receipt, and drops the texts once there is room again', async () => {
    await using desk = await smallDiskDesk('disk-full');
    const { disk, state } = desk;
    const { pane, log, auth } = desk.standInPane();
    // The last day's receipts: a log bigger than the room the disk will have left.
    const now = Date.now();
    const lines = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ receipt: { requestId: `old-${i}`, paneId: 'disk-full:%9', kind: 'text', summary: `an earlier send ${i}`, state: 'typed', outcome: 'typed into the pane', final: true, createdAt: now - 60_000, updatedAt: now - 60_000 } }));
    disk.run(['sh', '-c', 'mkdir -p "$0/sends" && cat > "$0/sends/log.jsonl"', state.path], { input: `${lines.join('\n')}\n` });
    await using bridge = await desk.startBridge();
    await bridge.explained(async () => {
      const id = await claudePaneReady(bridge.url, auth, pane);
      const send = async (text: string, requestId: string) => {
        const res = await fetch(`${bridge.url}/api/panes/${encodeURIComponent(id)}/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ text, request_id: requestId }) }).catch((err: Error) => {
          throw new Error(`the send ${requestId} got no answer (${err.message}); the bridge ${bridge.child.exitCode === null ? 'runs' : `exited ${bridge.child.exitCode}`}: ${bridge.stderr()}`);
        });
        return ReceiptBody.parse(await res.json()).receipt;
      };
      const logSize = () => Number(disk.run(['stat', '-c', '%s', join(state.path, 'sends', 'log.jsonl')]));
      expect(logSize()).toBeGreaterThan(200_000);

      disk.fill(64 * 1024);
      // Each send's receipt lines still fit; the log's rewrite after it does not.
      for (let i = 0; i < 3; i++) {
        expect((await send(`full disk send ${i}`, `full-${i}`)).outcome).toBe('typed into the pane');
        await claudePaneReady(bridge.url, auth, pane);
      }
      // The rewrite came due 200 ms after each send, and failed.
      await new Promise((r) => setTimeout(r, 1000));
      expect(bridge.child.exitCode, bridge.stderr()).toBeNull();
      expect(disk.run(['cat', join(state.path, 'sends', 'log.jsonl')])).toContain('"text":"full disk send 0"');

      disk.unfill();
      // The rewrite is tried again: the texts of ended sends leave the disk, every receipt stays.
      await expect.poll(() => disk.run(['cat', join(state.path, 'sends', 'log.jsonl')]).includes('"text":"full disk send'), { timeout: 20_000, interval: 500 }).toBe(false);
      const kept = disk.run(['cat', join(state.path, 'sends', 'log.jsonl')]);
      expect(kept).toContain('"requestId":"full-2"');
      expect(kept).toContain('"requestId":"old-0"');
      expect((await send('full disk send 0', 'full-0')).outcome).toBe('typed into the pane');
      const typed = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { line?: string });
      expect(typed.filter((t) => t.line?.startsWith('full disk send'))).toHaveLength(3);
      expect(bridge.child.exitCode, bridge.stderr()).toBeNull();
    });
  });

  it('a send it cannot write is not sent, says why, and nothing of it is typed', async () => {
    await using desk = await smallDiskDesk('send-unsaved');
    const { disk, state } = desk;
    const { pane, fifo, log, auth } = desk.standInPane();
    await using bridge = await desk.startBridge();
    await bridge.explained(async () => {
      const id = await claudePaneReady(bridge.url, auth, pane);
      const send = async (text: string, requestId: string) => {
        const res = await fetch(`${bridge.url}/api/panes/${encodeURIComponent(id)}/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ text, request_id: requestId }), signal: AbortSignal.timeout(20_000) });
        expect(res.status).toBe(200);
        return ReceiptBody.parse(await res.json()).receipt;
      };
      const typed = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { line?: string }).line ?? '') : []);
      const onDisk = (requestId: string) =>
        disk
          .run(['cat', join(state.path, 'sends', 'log.jsonl')])
          .split('\n')
          .filter(Boolean)
          .map((l) => (JSON.parse(l) as { receipt: { requestId: string; outcome: string } }).receipt)
          .filter((r) => r.requestId === requestId)
          .at(-1)?.outcome;

      // No room at all: the receipt cannot be written before typing, so the send ends at once, not sent, with the reason.
      disk.fill(0);
      const first = await send('no room for this', 'unsaved-1');
      expect({ state: first.state, final: first.final, outcome: first.outcome }).toEqual({ state: 'not_sent', final: true, outcome: OUTCOME.notSaved });
      expect(await send('no room for this', 'unsaved-1')).toMatchObject({ state: 'not_sent', outcome: OUTCOME.notSaved });

      // A send waiting for the agent's turn when the disk fills: when the turn ends, nothing can be written, and nothing is typed.
      disk.unfill();
      writeFileSync(fifo, 'busy 3000\n');
      await expect.poll(async () => ((await (await fetch(`${bridge.url}/api/snapshot`, { headers: auth })).json()) as { panes: { id: string; state: string }[] }).panes.find((p) => p.id === id)?.state, { timeout: 10_000 }).toBe('working');
      const held = await send('wait for the turn', 'unsaved-2');
      expect(held.final).toBe(false);
      disk.fill(0);
      await expect.poll(async () => (await send('wait for the turn', 'unsaved-2')).final, { timeout: 20_000 }).toBe(true);
      expect(await send('wait for the turn', 'unsaved-2')).toMatchObject({ state: 'not_sent', outcome: OUTCOME.notSaved });

      // Room again: both final receipts are on disk as they were said, and the pane got neither text.
      disk.unfill();
      await expect.poll(() => [onDisk('unsaved-1'), onDisk('unsaved-2')], { timeout: 20_000, interval: 500 }).toEqual([OUTCOME.notSaved, OUTCOME.notSaved]);
      expect((await send('room again', 'unsaved-3')).outcome).toBe(OUTCOME.typed);
      expect(typed()).toEqual(['room again']);
      expect(bridge.child.exitCode, bridge.stderr()).toBeNull();
    });
  });
});

