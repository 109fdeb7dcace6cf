// The Sessions page's first screen with 10,000 sessions across the five agents' stores (Claude
// Code, Codex, Gemini CLI, OpenCode, pi, generated in their real formats), p50 and p99, and a new
// session written to a store → its `session.changed` at a WebSocket client, p50 (npm run build first).
//   node bench/sessions.mjs [sessions=10000] [screens=50] [news=20]
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { quantile, root, startBridgeProcess } from './lib.mjs';

const N = Number(process.argv[2] ?? 10_000);
const SCREENS = Number(process.argv[3] ?? 50);
const NEWS = Number(process.argv[4] ?? 20);
const dir = mkdtempSync(join(tmpdir(), 'collie-bench-sessions-'));
const home = join(dir, 'home');
const iso = (ms) => new Date(ms).toISOString();
const t0 = Date.now() - N * 60_000;
const folders = Array.from({ length: 40 }, (_, i) => `/home/u/code/project-${i}`);
const turns = (first, at) => [first, `Answer to ${first}. `.repeat(20), 'and then?', 'Done. '.repeat(30)].map((text, i) => ({ text, at: at + i * 1000, user: i % 2 === 0 }));

function claude(i, at) {
  const id = randomUUID();
  const cwd = folders[i % folders.length];
  const d = join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
  mkdirSync(d, { recursive: true });
  const lines = turns(`claude task ${i}`, at).map((t) => JSON.stringify(t.user ? { type: 'user', sessionId: id, cwd, timestamp: iso(t.at), uuid: randomUUID(), message: { role: 'user', content: t.text } } : { type: 'assistant', sessionId: id, cwd, timestamp: iso(t.at), uuid: randomUUID(), message: { role: 'assistant', content: [{ type: 'text', text: t.text }] } }));
  return [join(d, `${id}.jsonl`), lines];
}
function codex(i, at) {
  const id = randomUUID();
  const day = new Date(at);
  const d = join(home, '.codex', 'sessions', String(day.getUTCFullYear()), String(day.getUTCMonth() + 1).padStart(2, '0'), String(day.getUTCDate()).padStart(2, '0'));
  mkdirSync(d, { recursive: true });
  const meta = { timestamp: iso(at), type: 'session_meta', payload: { id, timestamp: iso(at), cwd: folders[i % folders.length], originator: 'codex_cli_rs', cli_version: '0.171.0', instructions: 'x'.repeat(4000) } };
  const lines = [JSON.stringify(meta), ...turns(`codex task ${i}`, at).map((t) => JSON.stringify({ timestamp: iso(t.at), type: 'response_item', payload: { type: 'message', role: t.user ? 'user' : 'assistant', content: [{ type: t.user ? 'input_text' : 'output_text', text: t.text }] } }))];
  return [join(d, `rollout-${iso(at).replace(/[:.]/g, '-')}-${id}.jsonl`), lines];
}
function gemini(i, at) {
  const id = randomUUID();
  const project = `project-${i % folders.length}`;
  const d = join(home, '.gemini', 'tmp', project, 'chats');
  mkdirSync(d, { recursive: true });
  const lines = [JSON.stringify({ sessionId: id, projectHash: 'x', startTime: iso(at), lastUpdated: iso(at), kind: 'main' }), ...turns(`gemini task ${i}`, at).map((t) => JSON.stringify({ id: randomUUID(), timestamp: iso(t.at), type: t.user ? 'user' : 'gemini', content: t.user ? [{ text: t.text }] : t.text }))];
  return [join(d, `session-${iso(at).slice(0, 16).replace(/:/g, '-')}-${id.slice(0, 8)}.jsonl`), lines];
}
function pi(i, at) {
  const id = randomUUID();
  const cwd = folders[i % folders.length];
  const d = join(home, '.pi', 'agent', 'sessions', `--${cwd.slice(1).replace(/\//g, '-')}--`);
  mkdirSync(d, { recursive: true });
  const lines = [JSON.stringify({ type: 'session', version: 3, id, timestamp: iso(at), cwd }), ...turns(`pi task ${i}`, at).map((t, k) => JSON.stringify({ type: 'message', id: `m${k}`, parentId: k ? `m${k - 1}` : null, timestamp: iso(t.at), message: { role: t.user ? 'user' : 'assistant', content: [{ type: 'text', text: t.text }] } }))];
  return [join(d, `${iso(at).replace(/[:.]/g, '-')}_${id}.jsonl`), lines];
}
const { utimesSync } = await import('node:fs');
const writers = [claude, codex, gemini, pi];
let opencode = 0;
const Database = createRequire(join(root, 'packages/bridge/package.json'))('libsql');
const ocDir = join(home, '.local', 'share', 'opencode');
mkdirSync(ocDir, { recursive: true });
const db = new Database(join(ocDir, 'opencode.db'));
db.exec('PRAGMA journal_mode = WAL');
db.exec(`CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL, directory text NOT NULL, title text NOT NULL, version text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX part_session_idx ON part (session_id);`);
const insS = db.prepare('INSERT INTO session VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?)');
const insM = db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)');
const insP = db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)');
db.exec('BEGIN');
for (let i = 0; i < N; i++) {
  const at = t0 + i * 60_000;
  if (i % 5 === 4) {
    const id = `ses_${String(i).padStart(8, '0')}`;
    insS.run(id, 'p', `s${i}`, folders[i % folders.length], `opencode task ${i}`, '1.18', at, at + 3000);
    for (const [k, t] of turns(`opencode task ${i}`, at).entries()) {
      insM.run(`msg_${i}_${k}`, id, t.at, t.at, JSON.stringify({ role: t.user ? 'user' : 'assistant', time: { created: t.at } }));
      insP.run(`prt_${i}_${k}`, `msg_${i}_${k}`, id, t.at, t.at, JSON.stringify({ type: 'text', text: t.text }));
    }
    opencode++;
    continue;
  }
  const [path, lines] = writers[i % 5](i, at);
  writeFileSync(path, `${lines.join('\n')}\n`);
  utimesSync(path, new Date(at + 3000), new Date(at + 3000));
}
db.exec('COMMIT');
db.close();

const bridge = await startBridgeProcess({ dir: join(dir, 'tmux') }, { HOME: home, CLAUDE_CONFIG_DIR: '', CODEX_HOME: '', GEMINI_CLI_HOME: '', XDG_DATA_HOME: '', PI_CODING_AGENT_DIR: '' });
const get = async (q = '') => {
  const started = performance.now();
  const res = await fetch(`${bridge.url}/api/sessions${q}`, { headers: bridge.headers });
  const body = await res.json();
  return { ms: performance.now() - started, body };
};
try {
  // The first screen after the bridge started: the stores listed (never read whole), heads of one page read.
  const cold = await get();
  if (cold.body.sessions?.length !== 50) throw new Error(`first screen: ${JSON.stringify(cold.body).slice(0, 300)}`);
  // The first word search, asked at once: it waits for the index to have read every head.
  const searchCold = await get('?q=task%209999');
  if (searchCold.body.sessions?.length !== 1) throw new Error(`search: ${JSON.stringify(searchCold.body).slice(0, 300)}`);
  const warm = [];
  for (let i = 0; i < SCREENS; i++) warm.push((await get()).ms);
  const filtered = [];
  for (let i = 0; i < SCREENS; i++) filtered.push((await get(`?agent=${['claude', 'codex', 'gemini', 'opencode', 'pi'][i % 5]}`)).ms);
  const searches = [];
  for (let i = 0; i < SCREENS; i++) searches.push((await get(`?q=task%20${9998 - i * 37}`)).ms);

  // A new session written to Claude Code's store → listed at a WebSocket client.
  const ws = new WebSocket(`${bridge.url.replace(/^http/, 'ws')}/api/events`, { headers: bridge.headers });
  await new Promise((r) => ws.once('open', r));
  const waiting = new Map();
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString());
    if (m.type === 'session.changed') waiting.get(m.session.id)?.(performance.now());
  });
  const news = [];
  for (let i = 0; i < NEWS; i++) {
    const [path, lines] = claude(N + i, Date.now());
    const id = path.split('/').at(-1).replace('.jsonl', '');
    const seen = new Promise((r) => waiting.set(id, r));
    const started = performance.now();
    writeFileSync(path, `${lines.join('\n')}\n`);
    news.push((await seen) - started);
  }
  ws.close();
  const f = (x) => x.toFixed(1);
  const result = {
    sessions: N,
    opencode,
    firstScreenColdMs: Number(f(cold.ms)),
    firstScreen: { p50: Number(f(quantile(warm, 0.5))), p99: Number(f(quantile(warm, 0.99))) },
    agentFilter: { p50: Number(f(quantile(filtered, 0.5))), p99: Number(f(quantile(filtered, 0.99))) },
    searchColdMs: Number(f(searchCold.ms)),
    search: { p50: Number(f(quantile(searches, 0.5))), p99: Number(f(quantile(searches, 0.99))) },
    newSessionListed: { p50: Number(f(quantile(news, 0.5))), p99: Number(f(quantile(news, 0.99))) },
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(join(root, 'bench', 'results', 'sessions.json'), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  bridge.stop();
  rmSync(dir, { recursive: true, force: true });
}
