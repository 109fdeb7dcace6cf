import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { EventHub } from '../src/events/hub';
import { until } from './harness';
import { liveDesk } from './live-rig';
import { call, finalReceipt } from './send-helpers';
import { standIn } from './stand-in-rig';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Cycles of churn; COLLIE_CHURN_CYCLES=40 makes the test a measure (heap per cycle on stdout). */
const CYCLES = Number(process.env.COLLIE_CHURN_CYCLES ?? 6);
const PANES = 4;

/** What the hub holds per pane and per listener (its own fields, read as they are). */
const held = (hub: EventHub) => ({ sends: hub.sends.size, listeners: (hub as unknown as { listeners: Set<unknown> }).listeners.size });

// A measure, run on its own with COLLIE_CHURN_CYCLES=N (docs/benchmarks.md, "Memory under
// churn"); what it found is tested in src/events/hub.test.ts, the stores' own tests and
// new-session-read.test.ts (under load the first pane of a new session read `unknown` for good:
// it drew before the session's control client was attached, and nobody read it again).
describe.skipIf(!process.env.COLLIE_CHURN_CYCLES)('a bridge under churn (panes, a session, phones and sends made and gone, again and again)', () => {
  it('holds nothing per gone pane, session or phone: its model and listeners stay the same size cycle after cycle', async () => {
    await using desk = await liveDesk('collie-churn');
    const base = await desk.tmux.newSession('base', { cmd: 'cat' });
    const bridge = await desk.startBridge();
    await until(bridge.hub, 'the base pane', (h) => h.panes.has(`${desk.tmux.name}:${base}`));
    const figures: { heap: number; sends: number; listeners: number }[] = [];
    for (let c = 0; c < CYCLES; c++) {
      // A session of stand-in agents (one takes control lines on a fifo, as the soak's do).
      const fifo = join(desk.work.path, `fifo-${c}`);
      execFileSync('mkfifo', [fifo]);
      const log = join(desk.work.path, `log-${c}.jsonl`);
      const session = `churn-${c}`;
      const panes = [await desk.tmux.newSession(session, { cmd: [process.execPath, standIn], env: { SOAK_FIFO: fifo, SOAK_LOG: log } })];
      while (panes.length < PANES) panes.push(await desk.tmux.newWindow(session, { cmd: [process.execPath, standIn], env: { SOAK_LOG: log } }));
      const ids = panes.map((p) => `${desk.tmux.name}:${p}`);
      await until(bridge.hub, 'the stand-ins idle', (h) => ids.every((id) => h.panes.get(id)?.harness === 'claude' && h.panes.get(id)?.state === 'idle'), 30_000);
      // Phones come, follow a pane's chat and screen, and go.
      for (const id of ids) {
        const ws = new WebSocket(`${bridge.url.replace(/^http/, 'ws')}/api/events`, { headers: bridge.device.headers });
        await new Promise<void>((r, j) => (ws.once('message', () => r()), ws.once('error', j)));
        ws.send(JSON.stringify({ type: 'chat.subscribe', id }));
        ws.send(JSON.stringify({ type: 'screen.subscribe', id }));
        await new Promise<void>((r) => (ws.once('close', () => r()), ws.close()));
      }
      for (const [k, id] of ids.entries()) {
        const r = await call(bridge, id, 'send', { text: `churn ${c} ${k}`, request_id: `churn-${c}-${k}` });
        await finalReceipt(bridge, r.requestId);
      }
      await desk.tmux.tmux('kill-session', '-t', session);
      await until(bridge.hub, 'the panes gone', (h) => ids.every((id) => !h.panes.has(id)), 30_000);
      for (let g = 0; g < 3; g++) gc();
      figures.push({ heap: process.memoryUsage().heapUsed, ...held(bridge.hub) });
      const m = process.memoryUsage();
      if (process.env.COLLIE_CHURN_CYCLES) console.log(`cycle ${c}: heap ${(m.heapUsed / 1e6).toFixed(2)} MB (of ${(m.heapTotal / 1e6).toFixed(1)}), rss ${(m.rss / 1e6).toFixed(1)} MB, external ${(m.external / 1e6).toFixed(2)} MB, ${JSON.stringify(held(bridge.hub))}`);
    }
    const half = Math.floor(CYCLES / 2);
    if (process.env.COLLIE_CHURN_CYCLES) console.log(`heap per cycle over the last ${CYCLES - half}: ${((figures.at(-1)!.heap - figures[half - 1]!.heap) / (CYCLES - half) / 1e3).toFixed(1)} kB`);
    // Only the base pane is left: no receipts of a gone pane, no listener of a gone phone.
    expect(figures.map((f) => f.sends)).toEqual(figures.map(() => 0));
    expect(figures.map((f) => f.listeners)).toEqual(figures.map(() => figures[0]!.listeners));
  }, Math.max(300_000, CYCLES * 3_000));
});
