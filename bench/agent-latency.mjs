// Screen change → `pane.updated` at a WebSocket client with 50 live panes of one agent
// (stand-ins that draw that agent's captured screens, as event-latency.mjs does for Claude).
// Run: node bench/agent-latency.mjs <codex|gemini|opencode|pi|omp> [changes=200]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { quantile, root, settle, startAgents, startBridgeProcess } from './lib.mjs';

const AGENT = process.argv[2] ?? 'codex';
const CHANGES = Number(process.argv[3] ?? 200);
// The captured screen each agent shows while it waits on an approval.
const APPROVAL = { codex: 'approval', gemini: 'approval', opencode: 'permission-bash', pi: 'permission-gate', omp: 'approval' };
if (!Object.hasOwn(APPROVAL, AGENT)) throw new Error(`no captures for ${AGENT}: ${Object.keys(APPROVAL).join(', ')}`);
const screens = join(root, 'packages/bridge/src/harness', AGENT, 'captures');
const agents = startAgents({ panes: 50, sessions: 10, agent: AGENT, screens, first: 'done' });
const bridge = await startBridgeProcess(agents);
try {
  await settle(bridge, 50, 'idle', 60_000, AGENT);
  const ws = new WebSocket(bridge.url.replace('http', 'ws') + '/api/events', { headers: bridge.headers });
  await new Promise((r) => ws.once('open', r));
  let waiting = null;
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString());
    if (waiting && m.type === 'pane.updated' && m.pane.id === waiting.id && m.pane.state === waiting.state && waiting.at === null) waiting.at = performance.now();
  });
  const lat = [];
  const next = new Map(agents.panes.map((p) => [p.id, 'working']));
  for (let i = 0; i < CHANGES; i++) {
    const pane = agents.panes[Math.floor(Math.random() * agents.panes.length)];
    const state = next.get(pane.id);
    next.set(pane.id, state === 'working' ? 'blocked' : 'working');
    const t0 = performance.now();
    waiting = { id: pane.id, state, at: null };
    writeFileSync(pane.fifo, `${state === 'working' ? 'working' : APPROVAL[AGENT]}\n`);
    while (waiting.at === null && performance.now() < t0 + 3000) await new Promise((r) => setTimeout(r, 1));
    if (waiting.at !== null) lat.push(waiting.at - t0);
    await new Promise((r) => setTimeout(r, 20));
  }
  ws.close();
  const fmt = (xs) => ({ n: xs.length, p50: +quantile(xs, 0.5).toFixed(1), p99: +quantile(xs, 0.99).toFixed(1), max: +Math.max(...xs).toFixed(1) });
  console.log(JSON.stringify({ agent: AGENT, panes: 50, sessions: 10, changes: CHANGES, stateEvent: fmt(lat), missed: CHANGES - lat.length }, null, 2));
} finally {
  bridge.stop();
  agents.stop();
}
