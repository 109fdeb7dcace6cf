// A pane's Chat: a transcript line appended → its chat item at a subscribed WebSocket client
// (p50, p99); opening the chat of a 100 MB transcript (time to the first screen of items);
// the bridge's RSS while 8 chats follow live. Eight fake Claude panes, each with a session
// registry and a transcript in Claude Code's format, in a temp config dir; or (agent `pi`)
// eight fake pi panes, each in its own folder with a session file in pi's format, found by time.
// Run: node bench/pane-chat.mjs [appends=300] [bigMB=100] [agent=claude|pi]
import { appendFileSync, mkdirSync, mkdtempSync, openSync, closeSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { procStats, quantile, settle, startAgents, startBridgeProcess } from './lib.mjs';

const APPENDS = Number(process.argv[2] ?? 300);
const BIG_MB = Number(process.argv[3] ?? 100);
const AGENT = process.argv[4] ?? 'claude';
if (AGENT !== 'claude' && AGENT !== 'pi') throw new Error(`agent: claude or pi, not ${AGENT}`);
const PANES = 8;
const config = mkdtempSync(join(tmpdir(), `collie-bench-${AGENT}-`));
// The panes inherit the tmux server's environment, taken from this process.
process.env.CLAUDE_CONFIG_DIR = config;
process.env.PI_CODING_AGENT_DIR = config;
const work = (i) => join(config, `work-${i}`);
for (let i = 0; i < PANES; i++) mkdirSync(work(i), { recursive: true });
const agents =
  AGENT === 'pi'
    ? startAgents({ panes: PANES, sessions: 2, agent: 'pi', screens: join(import.meta.dirname, '..', 'packages/bridge/src/harness/pi/captures'), first: 'fresh-idle', cwdOf: work })
    : startAgents({ panes: PANES, sessions: 2 });
const bridge = await startBridgeProcess(agents);
const line =
  AGENT === 'pi'
    ? (i, text) => JSON.stringify({ type: 'message', id: `m${i}`, parentId: null, timestamp: new Date().toISOString(), message: i % 2 ? { role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop' } : { role: 'user', content: [{ type: 'text', text }] } })
    : (i, text) =>
        JSON.stringify({ type: i % 2 ? 'assistant' : 'user', uuid: `u${i}`, sessionId: 's', timestamp: new Date().toISOString(), message: { role: i % 2 ? 'assistant' : 'user', content: i % 2 ? [{ type: 'text', text }] : text } });
try {
  await settle(bridge, PANES, 'idle', 60_000, AGENT);
  const files = [];
  for (const [i, p] of agents.panes.entries()) {
    const pid = Number(agents.tmux('display-message', '-p', '-t', p.tmuxId, '#{pane_pid}'));
    const session = `0000000${i}-0000-4000-8000-000000000000`;
    const cwd = work(i);
    let file;
    if (AGENT === 'pi') {
      // pi: <agent dir>/sessions/--<folder>--/<time>_<id>.jsonl, its header started after the pane's pi did.
      const dir = join(config, 'sessions', `--${cwd.replace(/^\//, '').replace(/[/\\:]/g, '-')}--`);
      mkdirSync(dir, { recursive: true });
      file = join(dir, `2026-12-04T00-00-00-000Z_${session}.jsonl`);
      writeFileSync(file, `${JSON.stringify({ type: 'session', version: 3, id: session, timestamp: new Date().toISOString(), cwd })}\n`);
    } else {
      mkdirSync(join(config, 'sessions'), { recursive: true });
      writeFileSync(join(config, 'sessions', `${pid}.json`), JSON.stringify({ pid, sessionId: session, cwd }));
      const dir = join(config, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
      mkdirSync(dir, { recursive: true });
      file = join(dir, `${session}.jsonl`);
    }
    const fd = openSync(file, 'a');
    // Pane 0 gets the big transcript; the others a short one.
    const target = i === 0 ? BIG_MB * 1024 * 1024 : 20_000;
    const chunk = [];
    for (let n = 0, size = 0; size < target; n++) {
      const l = `${line(n, `line ${n} ${'words of a reply '.repeat(50)}`)}\n`;
      chunk.push(l);
      size += l.length;
      if (chunk.length === 1000) writeSync(fd, chunk.splice(0).join(''));
    }
    writeSync(fd, chunk.join(''));
    closeSync(fd);
    files.push({ id: p.id, file });
  }

  // Opening the 100 MB chat: the first page over HTTP, nobody following it yet.
  const opens = [];
  for (let k = 0; k < 5; k++) {
    const t0 = performance.now();
    const page = await (await fetch(`${bridge.url}/api/panes/${encodeURIComponent(files[0].id)}/chat?limit=50`, { headers: bridge.headers })).json();
    if (!page.items?.length) throw new Error(`no items: ${JSON.stringify(page).slice(0, 300)}`);
    opens.push(performance.now() - t0);
  }

  // The same for a short transcript: what finding the pane's file costs (a pass over /proc).
  const small = [];
  for (let k = 0; k < 5; k++) {
    const t0 = performance.now();
    await (await fetch(`${bridge.url}/api/panes/${encodeURIComponent(files[1].id)}/chat?limit=50`, { headers: bridge.headers })).json();
    small.push(performance.now() - t0);
  }
  const procs = (await import('node:fs')).readdirSync('/proc').filter((n) => /^\d+$/.test(n)).length;

  const ws = new WebSocket(bridge.url.replace('http', 'ws') + '/api/events', { headers: bridge.headers });
  await new Promise((r) => ws.once('open', r));
  const firstPages = new Set();
  let waiting = null;
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString());
    if (m.type !== 'pane.chat') return;
    if (m.reset && m.items.length > 0) firstPages.add(m.id);
    if (waiting && m.id === waiting.id && m.items.some((it) => it.text === waiting.text)) waiting.at = performance.now();
  });
  for (const f of files) ws.send(JSON.stringify({ type: 'chat.subscribe', id: f.id }));
  while (firstPages.size < PANES) await new Promise((r) => setTimeout(r, 10));

  const lat = [];
  for (let i = 0; i < APPENDS; i++) {
    const f = files[i % PANES];
    const text = `appended ${i}`;
    waiting = { id: f.id, text, at: null };
    const t0 = performance.now();
    appendFileSync(f.file, `${line(1, text)}\n`);
    while (waiting.at === null && performance.now() < t0 + 3000) await new Promise((r) => setImmediate(r));
    if (waiting.at !== null) lat.push(waiting.at - t0);
  }
  const { rss } = procStats(bridge.pid);
  const ms = (x) => `${x.toFixed(1)} ms`;
  const report = [
    `appended line → chat item at a subscribed client (${lat.length}/${APPENDS}): p50 ${ms(quantile(lat, 0.5))}, p99 ${ms(quantile(lat, 0.99))}`,
    `agent: ${AGENT}`,
    `opening the chat of a ${BIG_MB} MB transcript (first 50 items over HTTP): p50 ${ms(quantile(opens, 0.5))}, max ${ms(Math.max(...opens))}`,
    `the same for a 20 KB transcript (finding the file: one pass over /proc, ${procs} processes on this machine): p50 ${ms(quantile(small, 0.5))}`,
    `bridge RSS with ${PANES} chats following live: ${(rss / 1024).toFixed(0)} MB`,
  ];
  console.log(report.join('\n'));
  ws.close();
} finally {
  bridge.stop();
  agents.stop();
  rmSync(config, { recursive: true, force: true });
}
