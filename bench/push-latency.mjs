// Push latency: a pane's screen turns to a dialog (the stand-in agent redraws a real captured
// Claude screen) → the push request decrypted at a stand-in push service on loopback (real
// HTTPS, VAPID checked, aes128gcm decrypted), minus the configured debounce
// (COLLIE_PUSH_DELAY=1). Then the answer (the screen back to idle) → the withdrawal at the
// service. Then 1,000 subscriptions: one question → the last of the 1,000 pushes received.
// Each bridge run pushes at most 30 questions (the caps: 10 a minute, 30 an hour per agent),
// paced 6.1 s apart; each question is a new (pane, screen) pair (the once-only rule).
// The bridge runs in this process: pushes to a stand-in on loopback are allowed only by a
// setting given in code (`push.loopbackEndpoints`), never by a config, variable or route.
// Run after `npm run build`:  node bench/push-latency.mjs [runs=2] [perRun=25]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quantile, root, settle, startAgents } from './lib.mjs';

const RUNS = Number(process.argv[2] ?? 2);
const PER_RUN = Number(process.argv[3] ?? 25);
const DELAY_MS = 1000;
const PACE_MS = 6100;
const SCREENS = ['permission-edit', 'plan-approval', 'select-menu', 'select-multi', 'wizard-q1', 'trust-prompt'];
const kit = await import(join(root, 'packages/testkit/dist/bench-kit.mjs'));
const service = await kit.startPushService();

/** The bridge in this process, seeing only the agents' tmux dir, pushing to the stand-in; `headers` carry a device token. */
async function startPushBridge(agents) {
  const state = mkdtempSync(join(tmpdir(), 'collie-bench-state-'));
  const device = await kit.testDevice(state, 'bench');
  const b = await kit.startBridge(kit.testBridgeOptions(agents.dir, state, { push: { ca: service.ca, loopbackEndpoints: true, delayMs: DELAY_MS } }));
  return { url: b.url, headers: device.headers, state, stop: () => b.stop().finally(() => rmSync(state, { recursive: true, force: true })) };
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const post = (bridge, path, body) => fetch(`${bridge.url}/api/push${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.headers }, body: JSON.stringify(body) });
const draw = (pane, screen) => writeFileSync(pane.fifo, `${screen}\n`);
const payload = (p) => p.json ?? {};

const ask = [];
const withdraw = [];
for (let run = 0; run < RUNS; run++) {
  const agents = startAgents({ panes: 10, sessions: 2 });
  const bridge = await startPushBridge(agents);
  try {
    await settle(bridge, 10);
    const sub = service.subscribe();
    const subIndex = Number(sub.endpoint.split('/').pop());
    if ((await post(bridge, '/subscribe', { subscription: sub })).status !== 200) throw new Error('subscribe failed');
    for (let i = 0; i < PER_RUN; i++) {
      const pane = agents.panes[i % agents.panes.length];
      const screen = SCREENS[Math.floor(i / agents.panes.length) % SCREENS.length];
      const seen = service.received.length;
      const t0 = performance.timeOrigin + performance.now();
      draw(pane, screen);
      const shown = await service.next((p) => p.sub === subIndex && service.received.indexOf(p) >= seen && payload(p).type === 'push.show', 30_000);
      ask.push(shown.at - t0 - DELAY_MS);
      const t1 = performance.timeOrigin + performance.now();
      draw(pane, 'fresh-idle');
      const gone = await service.next((p) => p.sub === subIndex && payload(p).type === 'push.withdraw' && payload(p).tag === payload(shown).tag, 30_000);
      withdraw.push(gone.at - t1);
      await sleep(Math.max(0, PACE_MS - (Date.now() - t0)));
    }
  } finally {
    await bridge.stop();
    agents.stop();
  }
}

// 1,000 subscriptions, one question.
const fanout = [];
{
  const agents = startAgents({ panes: 3, sessions: 1 });
  const bridge = await startPushBridge(agents);
  try {
    await settle(bridge, 3);
    const subs = [];
    for (let i = 0; i < 1000; i++) {
      const sub = service.subscribe();
      subs.push(Number(sub.endpoint.split('/').pop()));
      if ((await post(bridge, '/subscribe', { subscription: sub })).status !== 200) throw new Error(`subscribe ${i} failed`);
    }
    const mine = new Set(subs);
    for (let round = 0; round < 3; round++) {
      const pane = agents.panes[round];
      const seen = service.received.length;
      const t0 = performance.timeOrigin + performance.now();
      draw(pane, 'permission-edit');
      const fresh = () => service.received.slice(seen).filter((p) => mine.has(p.sub) && payload(p).type === 'push.show');
      while (fresh().length < 1000) {
        if (performance.timeOrigin + performance.now() - t0 > 120_000) throw new Error(`only ${fresh().length} of 1000 pushes arrived`);
        await sleep(5);
      }
      const at = fresh().map((p) => p.at);
      fanout.push({ first: Math.min(...at) - t0 - DELAY_MS, last: Math.max(...at) - t0 - DELAY_MS });
      draw(pane, 'fresh-idle');
      await sleep(PACE_MS);
    }
  } finally {
    await bridge.stop();
    agents.stop();
  }
}
await service.close();

const row = (name, xs) => `${name}: n=${xs.length} p50=${quantile(xs, 0.5).toFixed(1)} ms p99=${quantile(xs, 0.99).toFixed(1)} ms max=${Math.max(...xs).toFixed(1)} ms`;
console.log(row('screen → push at the service, minus the debounce', ask));
console.log(row('screen answered → withdrawal at the service', withdraw));
for (const f of fanout) console.log(`1,000 subscriptions: first push ${f.first.toFixed(0)} ms, last push ${f.last.toFixed(0)} ms (minus the debounce)`);
console.log(`refused by the service: ${service.refused.length}`);
process.exit(0);
