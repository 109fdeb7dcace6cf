// A pane's usage: a transcript line with usage appended → the pane's new figures at a WebSocket
// client (p50, p99, budget p50 ≤ 50 ms); and the bridge at rest with 50 idle Claude panes whose
// transcripts record usage (CPU share of one core over a window, RSS), to set beside the same
// run of a bridge without usage reading (COLLIE_BENCH_CLI=<its packages/cli/dist/collie.mjs>).
// Fake Claude panes, each with Claude Code's session registry and a transcript in its format.
// Run: node bench/usage.mjs [appends=200] [idleSeconds=60]
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { procStats, quantile, settle, startAgents, startBridgeProcess } from './lib.mjs';

const APPENDS = Number(process.argv[2] ?? 200);
const SECONDS = Number(process.argv[3] ?? 60);
const PANES = 50;
const config = mkdtempSync(join(tmpdir(), 'collie-bench-usage-'));
process.env.CLAUDE_CONFIG_DIR = config;
const work = (i) => join(config, `work-${i}`);
for (let i = 0; i < PANES; i++) mkdirSync(work(i), { recursive: true });
const agents = startAgents({ panes: PANES, sessions: 10, cwdOf: work });

let n = 0;
const usageLine = (tokens) =>
  JSON.stringify({
    type: 'assistant',
    uuid: `u${++n}`,
    sessionId: 's',
    timestamp: new Date().toISOString(),
    message: { id: `msg_${n}`, role: 'assistant', model: 'claude-opus-4-5-20251101', content: [{ type: 'text', text: `answer ${n}` }], usage: { input_tokens: tokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 1000, output_tokens: 10 } },
  });

// The registries and transcripts are there before the bridge starts, as for agents already running.
const files = [];
mkdirSync(join(config, 'sessions'), { recursive: true });
for (const [i, p] of agents.panes.entries()) {
  const pid = Number(agents.tmux('display-message', '-p', '-t', p.tmuxId, '#{pane_pid}'));
  const session = `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`;
  writeFileSync(join(config, 'sessions', `${pid}.json`), JSON.stringify({ pid, sessionId: session, cwd: work(i) }));
  const dir = join(config, 'projects', work(i).replace(/[^A-Za-z0-9]/g, '-'));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${session}.jsonl`);
  writeFileSync(file, Array.from({ length: 20 }, () => `${usageLine(100)}\n`).join(''));
  files.push({ id: p.id, file });
}

const bridge = await startBridgeProcess(agents);
try {
  await settle(bridge, PANES, 'idle', 120_000);
  const ws = new WebSocket(bridge.url.replace('http', 'ws') + '/api/events', { headers: bridge.headers });
  const tokens = new Map();
  let waiting = null;
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString());
    const panes = m.type === 'sync.reset' ? m.snapshot.panes : m.type === 'pane.updated' || m.type === 'pane.added' ? [m.pane] : [];
    for (const p of panes) {
      if (p.usage?.sessionTokens !== undefined) tokens.set(p.id, p.usage.sessionTokens);
      if (waiting && p.id === waiting.id && p.usage?.sessionTokens === waiting.tokens && waiting.at === null) waiting.at = performance.now();
    }
  });
  await new Promise((r) => ws.once('open', r));
  const t0 = performance.now();
  // A baseline build reads no usage: only its idle cost is measured.
  const baseline = process.env.COLLIE_BENCH_CLI !== undefined;
  while (!baseline && tokens.size < PANES && performance.now() - t0 < 120_000) await new Promise((r) => setTimeout(r, 20));
  const withUsage = tokens.size;

  const lat = [];
  for (let i = 0; i < (baseline ? 0 : APPENDS); i++) {
    const f = files[i % 8];
    const add = 100 + i;
    waiting = { id: f.id, tokens: (tokens.get(f.id) ?? 0) + add + 1000 + 10, at: null };
    const s = performance.now();
    appendFileSync(f.file, `${usageLine(add)}\n`);
    while (waiting.at === null && performance.now() < s + 3000) await new Promise((r) => setImmediate(r));
    if (waiting.at !== null) lat.push(waiting.at - s);
    tokens.set(f.id, waiting.tokens);
  }
  ws.close();

  // At rest: nothing appends; the followers wait on inotify.
  await new Promise((r) => setTimeout(r, 30_000));
  const a = procStats(bridge.pid);
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const b = procStats(bridge.pid);
  const ms = (x) => `${x.toFixed(1)} ms`;
  const cpu = ((b.ticks - a.ticks) / 100 / SECONDS) * 100;
  console.log(
    [
      `bridge: ${process.env.COLLIE_BENCH_CLI ?? 'this tree'}`,
      `panes whose usage reached the client: ${withUsage}/${PANES}`,
      `usage line → pane's figures at a client (${lat.length}/${APPENDS}): p50 ${lat.length ? ms(quantile(lat, 0.5)) : '-'}, p99 ${lat.length ? ms(quantile(lat, 0.99)) : '-'} (budget p50 ≤ 50 ms)`,
      `at rest, ${PANES} idle panes with transcripts, ${SECONDS} s: CPU ${cpu.toFixed(3)} % of one core, RSS ${(b.rss / 1024).toFixed(0)} MB`,
    ].join('\n'),
  );
} finally {
  bridge.stop();
  agents.stop();
}
