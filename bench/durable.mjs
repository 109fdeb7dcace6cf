// Durable agents, measured against the built bridge in its own process (npm run build first).
//   node bench/durable.mjs latency [questions=200]
//     a question asked through the SDK → its card (durable.conversation.updated) at a WebSocket client
//   node bench/durable.mjs load [seconds=30]
//     20 durable agents × 50 open conversations, streaming: the bridge's CPU and RSS
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { deviceToken, procStats, quantile, root } from './lib.mjs';

const { DurableAgent, serve } = await import(join(root, 'packages/durable-sdk/dist/sdk.mjs'));
const mode = process.argv[2] ?? 'latency';
const dir = mkdtempSync(join(tmpdir(), 'collie-bench-durable-'));
const config = join(dir, 'config');
mkdirSync(config, { recursive: true });

let headers = {};
async function startBridge() {
  const env = { ...process.env, TMUX_TMPDIR: join(dir, 'tmux'), COLLIE_TMUX_TMPDIR: join(dir, 'tmux'), COLLIE_STATE_DIR: join(dir, 'state'), COLLIE_CONFIG_DIR: config };
  headers = deviceToken(env);
  const child = spawn(process.execPath, [join(root, 'packages/cli/dist/collie.mjs'), 'serve', '--port', '0', '--no-qr'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`bridge exited (${code}): ${out}`)));
  });
  return { url, pid: child.pid, stop: () => child.kill('SIGTERM') };
}

async function agents(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const agent = new DurableAgent({ runtime: `bench-${i}`, onMessage: () => undefined });
    const on = await serve(agent, { socket: join(dir, `a${i}.sock`) });
    out.push({ name: `a${i}`, agent, on });
  }
  writeFileSync(join(config, 'sources.json'), JSON.stringify({ agents: out.map((a) => ({ name: a.name, socket: a.on.address })) }), { mode: 0o600 });
  return out;
}

function events(url, onMessage) {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/api/events`, { headers });
  ws.on('message', (d) => onMessage(JSON.parse(d.toString())));
  return new Promise((r) => ws.once('open', () => r(ws)));
}

const waitFor = (pred, ms = 30_000) =>
  new Promise((resolve, reject) => {
    const t0 = Date.now();
    const tick = () => (pred() ? resolve() : Date.now() - t0 > ms ? reject(new Error('timed out')) : setTimeout(tick, 20));
    tick();
  });

const bridge = await startBridge();
try {
  if (mode === 'latency') {
    const N = Number(process.argv[3] ?? 200);
    const [a] = await agents(1);
    const c = a.agent.open({ title: 'bench' });
    const waiting = new Map();
    let ready = false;
    const ws = await events(bridge.url, (m) => {
      if (m.type === 'durable.agent.updated' && m.agent.state === 'ready') ready = true;
      if (m.type === 'sync.reset' && m.snapshot.durable?.agents.some((x) => x.state === 'ready')) ready = true;
      if (m.type === 'durable.conversation.updated') for (const q of m.conversation.questions) waiting.get(q.id)?.(performance.now());
    });
    await waitFor(() => ready);
    await new Promise((r) => setTimeout(r, 500));
    const times = [];
    for (let i = 0; i < N; i++) {
      const id = `q${i}`;
      const seen = new Promise((r) => waiting.set(id, r));
      const t0 = performance.now();
      const q = c.ask({ id, kind: 'permission', title: `Step ${i}?`, options: [{ id: 'y', action: 'allow', label: 'Yes' }] });
      const t1 = await seen;
      waiting.delete(id);
      times.push(t1 - t0);
      q.decide();
      await new Promise((r) => setTimeout(r, 20));
    }
    ws.close();
    console.log(JSON.stringify({ what: 'question via SDK → card event at a WebSocket client', n: N, p50ms: +quantile(times, 0.5).toFixed(2), p99ms: +quantile(times, 0.99).toFixed(2), maxMs: +Math.max(...times).toFixed(2) }, null, 2));
    await a.on.close();
  } else {
    const SECONDS = Number(process.argv[3] ?? 30);
    const list = await agents(20);
    const convs = list.map((a) => Array.from({ length: 50 }, (_, i) => a.agent.open({ title: `conv ${i}` })));
    let eventsSeen = 0;
    const ws = await events(bridge.url, () => void eventsSeen++);
    await new Promise((r) => setTimeout(r, 3_000));
    // Each conversation streams a growing reply: a word every 2 s per conversation (500 words/s in all).
    const handles = convs.flat().map((c) => c.reply('', { growing: true }));
    let words = 0;
    const timer = setInterval(() => {
      for (let k = 0; k < 50; k++) {
        const h = handles[Math.floor(Math.random() * handles.length)];
        h.append('word ');
        words++;
      }
    }, 100);
    const s0 = procStats(bridge.pid);
    let maxRss = s0.rss;
    const t0 = Date.now();
    while (Date.now() - t0 < SECONDS * 1000) {
      await new Promise((r) => setTimeout(r, 500));
      maxRss = Math.max(maxRss, procStats(bridge.pid).rss);
    }
    clearInterval(timer);
    const s1 = procStats(bridge.pid);
    ws.close();
    console.log(JSON.stringify({ agents: 20, conversations: 1000, seconds: SECONDS, appendsPerSecond: +(words / SECONDS).toFixed(0), eventsAtClient: eventsSeen, cpuPercentOfOneCore: +(((s1.ticks - s0.ticks) / 100 / SECONDS) * 100).toFixed(2), rssMB: +(s1.rss / 1024).toFixed(1), maxRssMB: +(maxRss / 1024).toFixed(1) }, null, 2));
    for (const a of list) await a.on.close();
  }
} finally {
  bridge.stop();
  setTimeout(() => rmSync(dir, { recursive: true, force: true }), 500);
}
