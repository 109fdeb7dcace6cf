// An OpenCode pane's Chat: a new row in OpenCode's SQLite database (a message and its text
// part, committed as OpenCode commits them, in WAL mode) → its chat item at a subscribed
// WebSocket client (p50, p99); opening the chat of a long session (time to the first screen of
// items); the bridge's RSS while 8 chats follow live. Eight fake OpenCode panes, each in its own
// folder, one shared database `$XDG_DATA_HOME/opencode/opencode.db` with each pane's session
// made after its pane started (found by time: the stand-ins write no OpenCode log).
// Run: node bench/pane-chat-opencode.mjs [rows=300] [bigTurns=100000]
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { procStats, quantile, settle, startAgents, startBridgeProcess } from './lib.mjs';

const Database = createRequire(import.meta.url)('libsql');
const ROWS = Number(process.argv[2] ?? 300);
const BIG = Number(process.argv[3] ?? 100_000);
const PANES = 8;
const home = mkdtempSync(join(tmpdir(), 'collie-bench-opencode-'));
// The panes inherit the tmux server's environment, taken from this process.
process.env.XDG_DATA_HOME = join(home, 'data');
const work = (i) => join(home, `work-${i}`);
for (let i = 0; i < PANES; i++) mkdirSync(work(i), { recursive: true });
const data = join(home, 'data', 'opencode');
mkdirSync(data, { recursive: true });

// OpenCode 1.18's tables (the columns the Chat reads), in WAL mode as OpenCode keeps them.
const db = new Database(join(data, 'opencode.db'));
db.exec('PRAGMA journal_mode = WAL');
db.exec(`
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL, directory text NOT NULL, title text NOT NULL, version text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);
CREATE INDEX part_session_idx ON part (session_id);`);
const addSession = db.prepare("INSERT INTO session VALUES (?, 'global', NULL, 's', ?, 't', '1.18.33', ?, ?)");
const addMessage = db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)');
const addPart = db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)');
let n = 0;
/** One turn's message and its text part, in one transaction, as OpenCode writes them. */
function turn(session, text, role = n % 2 ? 'assistant' : 'user') {
  const t = Date.now();
  const m = `msg_${session}_${++n}`;
  addMessage.run(m, session, t, t, JSON.stringify({ role, time: { created: t } }));
  addPart.run(`prt_${session}_${n}`, m, session, t, t, JSON.stringify({ type: 'text', text }));
}

const agents = startAgents({ panes: PANES, sessions: 2, agent: 'opencode', screens: join(import.meta.dirname, '..', 'packages/bridge/src/harness/opencode/captures'), first: 'fresh-idle', cwdOf: work });
// Each pane's session begins after its pane's process did (more than the finder's second of doubt).
await new Promise((r) => setTimeout(r, 1500));
const sessions = [];
for (const [i, p] of agents.panes.entries()) {
  const id = `ses_bench${i}`;
  addSession.run(id, work(i), Date.now(), Date.now());
  // Pane 0's session is long; the others short.
  const count = i === 0 ? BIG : 40;
  db.exec('BEGIN');
  for (let k = 0; k < count; k++) turn(id, `turn ${k} ${'words of a reply '.repeat(20)}`);
  db.exec('COMMIT');
  sessions.push({ id: p.id, session: id });
}
const bridge = await startBridgeProcess(agents);
try {
  await settle(bridge, PANES, 'idle', 60_000, 'opencode');

  // Opening the long chat: the first page over HTTP, nobody following it yet.
  const opens = [];
  for (let k = 0; k < 5; k++) {
    const t0 = performance.now();
    const page = await (await fetch(`${bridge.url}/api/panes/${encodeURIComponent(sessions[0].id)}/chat?limit=50`, { headers: bridge.headers })).json();
    if (!page.items?.length) throw new Error(`no items: ${JSON.stringify(page).slice(0, 300)}`);
    opens.push(performance.now() - t0);
  }

  const ws = new WebSocket(bridge.url.replace('http', 'ws') + '/api/events', { headers: bridge.headers });
  await new Promise((r) => ws.once('open', r));
  const firstPages = new Set();
  let waiting = null;
  ws.on('message', (raw) => {
    const m = JSON.parse(raw.toString());
    if (m.type !== 'pane.chat') return;
    if (m.reset && m.items.length > 0) firstPages.add(m.id);
    if (process.env.BENCH_DEBUG && m.reset) console.error(`reset ${m.id} ${m.reason} ${m.items.length}`);
    if (waiting && m.id === waiting.id && m.items.some((it) => it.text === waiting.text)) waiting.at = performance.now();
  });
  for (const s of sessions) ws.send(JSON.stringify({ type: 'chat.subscribe', id: s.id }));
  while (firstPages.size < PANES) await new Promise((r) => setTimeout(r, 10));

  const lat = [];
  for (let i = 0; i < ROWS; i++) {
    const s = sessions[i % PANES];
    const text = `a new row ${i}`;
    waiting = { id: s.id, text, at: null };
    const t0 = performance.now();
    turn(s.session, text, 'assistant');
    while (waiting.at === null && performance.now() < t0 + 3000) await new Promise((r) => setImmediate(r));
    if (waiting.at !== null) lat.push(waiting.at - t0);
    else if (process.env.BENCH_DEBUG) console.error(`missed row ${i} of pane ${i % PANES}`);
  }
  const { rss } = procStats(bridge.pid);
  const ms = (x) => `${x.toFixed(1)} ms`;
  console.log(
    [
      `a new row in opencode.db → its chat item at a subscribed client (${lat.length}/${ROWS}): p50 ${ms(quantile(lat, 0.5))}, p99 ${ms(quantile(lat, 0.99))}`,
      `opening the chat of a ${BIG}-turn session (first 50 items over HTTP): p50 ${ms(quantile(opens, 0.5))}, max ${ms(Math.max(...opens))}`,
      `bridge RSS with ${PANES} chats following live: ${(rss / 1024).toFixed(0)} MB (${readdirSync('/proc').filter((p) => /^\d+$/.test(p)).length} processes on this machine)`,
    ].join('\n'),
  );
  ws.close();
} finally {
  bridge.stop();
  agents.stop();
  db.close();
  rmSync(home, { recursive: true, force: true });
}
