// Each real agent (Claude Code, Codex, Gemini CLI, OpenCode, pi, omp) in its own tmux pane, offline
// against its scripted model API, read by the built bridge (`collie serve`) in its own process, as
// a person runs it. Per agent, `rounds` times each:
//   send   POST /api/panes/:id/send to the idle pane → its receipt "typed into the pane"
//          (typed, seen in the box, submitted, the box emptied); the model API then got the prompt.
//   screen the agent's approval appears on its screen (this script reads the pane every 10 ms) →
//          `pane.updated` with state blocked and a card at a WebSocket client of /api/events.
//   answer POST /api/panes/:id/answer with the card's option 1 → its receipt; the approval closes.
// Agents whose package is not installed are skipped with a line saying why.
// Run after `npm run build`:  node bench/real-agents.mjs [rounds=10] [agent …]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { deviceToken, quantile, root } from './lib.mjs';

const ROUNDS = Number(process.argv[2] ?? 10);
const kit = await import(join(root, 'packages/testkit/dist/bench-kit.mjs'));
const asked = process.argv.slice(3);
const agents = asked.length > 0 ? asked : Object.keys(kit.AGENT_RIGS);
const SLOW = 180_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resolves with `f()` once it is truthy, checking every 10 ms; throws after `ms` naming `what`. */
async function until(what, f, ms = SLOW) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

const fmt = (xs) => (xs.length === 0 ? null : { n: xs.length, p50: +quantile(xs, 0.5).toFixed(1), p99: +quantile(xs, 0.99).toFixed(1), max: +Math.max(...xs).toFixed(1) });

async function benchAgent(name) {
  const starter = kit.AGENT_RIGS[name];
  if (!starter) throw new Error(`no such agent: ${name} (${Object.keys(kit.AGENT_RIGS).join(', ')})`);
  const missing = starter.missing();
  if (missing) return { agent: name, skipped: missing };
  const tmux = await kit.startTmux();
  const state = mkdtempSync(join(tmpdir(), 'collie-bench-state-'));
  let rig = null;
  let child = null;
  let ws = null;
  try {
    rig = await starter.start(tmux, { readyTimeoutMs: SLOW });
    const env = { ...process.env, TMUX_TMPDIR: tmux.tmpDir, COLLIE_STATE_DIR: state, COLLIE_CONFIG_DIR: join(state, 'config') };
    const auth = deviceToken(env);
    child = spawn(process.execPath, [join(root, 'packages/cli/dist/collie.mjs'), 'serve', '--port', '0', '--no-qr'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    const url = await new Promise((resolve) => child.stdout.on('data', (d) => { const m = /listening on (\S+)/.exec(String(d)); if (m) resolve(m[1]); }));
    const panes = new Map();
    const seen = [];
    ws = new WebSocket(url.replace('http', 'ws') + '/api/events', { headers: auth });
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (m.type === 'snapshot') for (const p of m.panes ?? []) panes.set(p.id, p);
      if (m.type === 'pane.updated') {
        panes.set(m.pane.id, m.pane);
        seen.push({ at: performance.now(), pane: m.pane });
      }
    });
    await new Promise((r, j) => { ws.once('open', r); ws.once('error', j); });
    const snapshot = async () => (await (await fetch(`${url}/api/snapshot`, { headers: auth })).json()).panes;
    const id = (await until('the pane on the bridge', async () => (await snapshot()).find((p) => p.tmuxId === rig.pane.paneId))).id;
    const paneNow = async () => (await snapshot()).find((p) => p.id === id);
    const idle = () => until('the pane idle', async () => { const p = await paneNow(); return p && p.harness === name && (p.state === 'idle' || p.state === 'done') && p.draft === null && p.dialog === null; });
    const post = async (verb, body) => (await (await fetch(`${url}/api/panes/${encodeURIComponent(id)}/${verb}`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify(body) })).json()).receipt;

    const send = [];
    const screen = [];
    const answer = [];
    for (let i = 0; i < ROUNDS; i++) {
      await idle();
      const text = `bench message ${i}`;
      rig.reply(`Noted ${i}.`);
      const t0 = performance.now();
      const receipt = await post('send', { text, request_id: `bench-${process.pid}-${name}-${i}` });
      const ms = performance.now() - t0;
      if (receipt.outcome !== 'typed into the pane') throw new Error(`${name} send ${i}: ${receipt.outcome}`);
      send.push(ms);
      await rig.received(text, SLOW);
      await rig.pane.waitForScreen((s) => s.includes(`Noted ${i}.`) && rig.idle(s), SLOW);
    }
    for (let i = 0; i < ROUNDS; i++) {
      await idle();
      rig.askToRun(`touch bench-${i}`);
      const from = seen.length;
      await rig.pane.submit(`run the bench command ${i}`);
      const shown = await until('the approval on screen', async () => (rig.asking(await rig.pane.capture()) ? performance.now() : 0));
      const event = await until('pane.updated blocked with a card', () => seen.slice(from).find((e) => e.pane.id === id && e.pane.state === 'blocked' && e.pane.card));
      screen.push(event.at - shown);
      const card = event.pane.card;
      const t0 = performance.now();
      const receipt = await post('answer', { signature: card.signature, option: 1, request_id: `bench-answer-${process.pid}-${name}-${i}` });
      if (receipt.outcome !== 'answered') throw new Error(`${name} answer ${i}: ${receipt.outcome}`);
      answer.push(performance.now() - t0);
      await rig.pane.waitForScreen((s) => !rig.asking(s) && rig.idle(s), SLOW);
    }
    return { agent: name, startMs: rig.pane.startMs, send: fmt(send), screenToEvent: fmt(screen), answer: fmt(answer) };
  } catch (err) {
    const last = rig ? await rig.pane.capture().catch(() => '') : '';
    return { agent: name, failed: String(err instanceof Error ? err.message : err), screen: last.split('\n').filter((l) => l.trim()).slice(-12).join('\n') };
  } finally {
    ws?.close();
    child?.kill('SIGTERM');
    await rig?.stop().catch(() => undefined);
    await tmux.kill();
    rmSync(state, { recursive: true, force: true });
  }
}

const load = () => loadavg().map((x) => +x.toFixed(1));
const results = [];
for (const name of agents) {
  const before = load();
  const r = await benchAgent(name);
  results.push({ ...r, load: { before, after: load() } });
  console.error(JSON.stringify(results.at(-1)));
}
console.log(JSON.stringify({ rounds: ROUNDS, results }, null, 2));
