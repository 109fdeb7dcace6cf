// Pane screen or state change → event at a WebSocket client, with 50 live panes across 10
// sessions; beside it, the same changes seen by a client that polls the snapshot every 1.5 s.
// Run: node bench/event-latency.mjs [changes=300]
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { quantile, settle, startAgents, startBridgeProcess } from './lib.mjs';

const CHANGES = Number(process.argv[2] ?? 300);
const agents = startAgents({ panes: 50, sessions: 10 });
const bridge = await startBridgeProcess(agents);
try {
  await settle(bridge, 50);
  const ws = new WebSocket(bridge.url.replace('http', 'ws') + '/api/events', { headers: bridge.headers });
  await new Promise((r) => ws.once('open', r));
  const watched = agents.panes.slice(0, 8);
  for (const p of watched) ws.send(JSON.stringify({ type: 'screen.subscribe', id: p.id }));
  let waiting = null; // { id, state, t0, frameAt, stateAt }
  ws.on('message', (data) => {
    if (!waiting) return;
    const m = JSON.parse(data.toString());
    const now = performance.now();
    if (m.type === 'pane.updated' && m.pane.id === waiting.id && m.pane.state === waiting.state && waiting.stateAt === null) waiting.stateAt = now;
    if (m.type === 'pane.screen' && m.id === waiting.id && waiting.frameAt === null && m.frame > waiting.frame0) waiting.frameAt = now;
  });
  const frames = new Map();
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString());
    if (m.type === 'pane.screen') frames.set(m.id, m.frame);
  });

  // The poller: what a page polling every 1.5 s would see of the same changes.
  const pollSeen = [];
  let pollTarget = null;
  const poll = setInterval(async () => {
    const snap = await (await fetch(`${bridge.url}/api/snapshot`, { headers: bridge.headers })).json();
    if (pollTarget && pollTarget.seenAt === null && snap.panes.some((p) => p.id === pollTarget.id && p.state === pollTarget.state)) {
      pollTarget.seenAt = performance.now();
      pollSeen.push(pollTarget.seenAt - pollTarget.t0);
    }
  }, 1500);

  const stateLat = [];
  const frameLat = [];
  const next = new Map(agents.panes.map((p) => [p.id, 'working']));
  for (let i = 0; i < CHANGES; i++) {
    const pane = i % 4 === 0 ? watched[i % watched.length] : agents.panes[Math.floor(Math.random() * agents.panes.length)];
    const state = next.get(pane.id);
    next.set(pane.id, state === 'working' ? 'blocked' : 'working');
    const t0 = performance.now();
    waiting = { id: pane.id, state, t0, frameAt: null, stateAt: null, frame0: frames.get(pane.id) ?? -1 };
    if (i % 10 === 0) pollTarget = { id: pane.id, state, t0, seenAt: null };
    writeFileSync(pane.fifo, `${state === 'working' ? 'working' : 'permission-edit'}\n`);
    const deadline = t0 + 3000;
    const isWatched = watched.includes(pane);
    while ((waiting.stateAt === null || (isWatched && waiting.frameAt === null)) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 1));
    if (waiting.stateAt !== null) stateLat.push(waiting.stateAt - t0);
    if (waiting.frameAt !== null) frameLat.push(waiting.frameAt - t0);
    // Every tenth change waits for the poller to see it too.
    if (pollTarget && pollTarget.t0 === t0) while (pollTarget.seenAt === null && performance.now() < t0 + 4000) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 20));
  }
  clearInterval(poll);

  // Structure: a new window (a new pane) → pane.added at the client.
  const addLat = [];
  const added = new Map();
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString());
    if (m.type === 'pane.added') added.set(m.pane.tmuxId, performance.now());
  });
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    const tmuxId = agents.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', `s${i % 10}`, 'sh');
    while (!added.has(tmuxId) && performance.now() < t0 + 3000) await new Promise((r) => setTimeout(r, 1));
    if (added.has(tmuxId)) addLat.push(added.get(tmuxId) - t0);
  }
  ws.close();
  const fmt = (xs) => ({ n: xs.length, p50: +quantile(xs, 0.5).toFixed(1), p99: +quantile(xs, 0.99).toFixed(1), max: +Math.max(...xs).toFixed(1) });
  const result = { panes: 50, sessions: 10, changes: CHANGES, stateEvent: fmt(stateLat), screenFrame: fmt(frameLat), poll1500: fmt(pollSeen), paneAdded: fmt(addLat), missed: CHANGES - stateLat.length };
  console.log(JSON.stringify(result, null, 2));
} finally {
  bridge.stop();
  agents.stop();
}
