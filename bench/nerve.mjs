// Nerve: task frames ingested and persisted per second with write-behind (flushed once a
// second) beside one transaction per frame; restart settlement of 10,000 live records; the
// gateway's RSS with 20 sessions. `npm run build` first. Usage: node bench/nerve.mjs [frames=100000]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './lib.mjs';

const { Store, openDb, Roster } = await import(join(root, 'packages/nerve/dist/bench-kit.mjs'));
const FRAMES = Number(process.argv[2] ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), 'nerve-bench-'));

function rig(name) {
  const store = new Store(openDb(join(dir, `${name}.db`)));
  store.putSession({ session_id: 's1', title: 'bench', model: 'sonnet', runtime_session_id: null, archived: false, reminder: null, created_at: Date.now() });
  let n = 0;
  const roster = new Roster('s1', Date.now, () => `ag_${(++n).toString(16).padStart(12, '0')}`, { changed: (r, s) => store.record(r, s), event: (e) => store.event(e) }, { lostGraceSeconds: 30, stopConfirmSeconds: 10 });
  // 20 live background agents whose frames interleave.
  for (let i = 0; i < 20; i++) {
    roster.ingest({ type: 'tool_call', toolUseId: `call${i}`, name: 'Agent', input: { description: `agent ${i}`, prompt: 'p', run_in_background: true }, parentToolUseId: null });
    roster.ingest({ type: 'task_started', taskId: `t${i}`, toolUseId: `call${i}`, taskType: 'local_agent', description: 'd', prompt: 'p', background: true, parentTaskId: null, ambient: false });
  }
  store.flush();
  return { store, roster };
}

function frame(i) {
  const a = i % 20;
  return i % 4 === 0
    ? { type: 'task_progress', taskId: `t${a}`, totalTokens: i, lastTool: 'Read', summary: null }
    : { type: 'agent_frame', parentToolUseId: `call${a}`, kind: 'text', payload: { text: `line ${i} of the agent's reply` }, call: { id: `m${a}-${i >> 4}`, model: 'claude-sonnet-4-5', inputTokens: 1000, outputTokens: i % 500 } };
}

function ingest(name, flushEvery) {
  const { store, roster } = rig(name);
  const t0 = performance.now();
  let last = t0;
  for (let i = 0; i < FRAMES; i++) {
    roster.ingest(frame(i));
    if (flushEvery === 0) store.flush();
    else if (performance.now() - last >= flushEvery) {
      store.flush();
      last = performance.now();
    }
  }
  store.flush();
  const s = (performance.now() - t0) / 1000;
  const rows = store.db.prepare('SELECT COUNT(*) AS n FROM session_agent_events').get().n;
  store.db.close();
  return { frames: FRAMES, seconds: s, perSecond: FRAMES / s, rows };
}

const behind = ingest('behind', 1000);
const perFrame = ingest('perframe', 0);
console.log(`write-behind (1 s batches): ${behind.frames} frames in ${behind.seconds.toFixed(2)} s = ${Math.round(behind.perSecond)} frames/s (${behind.rows} transcript rows)`);
console.log(`one transaction per frame:  ${perFrame.frames} frames in ${perFrame.seconds.toFixed(2)} s = ${Math.round(perFrame.perSecond)} frames/s (${perFrame.rows} transcript rows)`);

// Restart settlement: 10,000 live records left by a gateway that died.
{
  const store = new Store(openDb(join(dir, 'settle.db')));
  store.putSession({ session_id: 's1', title: 'bench', model: 'sonnet', runtime_session_id: null, archived: false, reminder: null, created_at: Date.now() });
  store.db.transaction(() => {
    for (let i = 0; i < 10_000; i++) {
      const id = `ag_${i.toString(16).padStart(12, '0')}`;
      store.record({ agent_id: id, session_id: 's1', kind: 'agent', status: 'running', reason: null, tool_use_id: `c${i}`, task_id: `t${i}`, parent_agent_id: null, name: `a${i}`, prompt: 'p', background: true, runs: 1, activity: null, summary: null, tokens: 0, cost_usd: 0, created_at: 1, started_at: 1, ended_at: null, last_activity_at: 1, stop_requested_at: null, attention: [] }, true);
    }
  })();
  const t0 = performance.now();
  const settled = store.settleLeftovers(Date.now());
  const ms = performance.now() - t0;
  console.log(`restart settlement: ${settled.get('s1').length} live records → interrupted (gateway_restart) in ${ms.toFixed(0)} ms`);
  store.db.close();
}

// The gateway's RSS with 20 sessions (each with 20 stored records; runtimes start on a session's first message).
{
  const cfg = join(dir, 'config.yaml');
  writeFileSync(cfg, `listen:\n  port: 0\nstate_dir: ${join(dir, 'state')}\n`);
  const child = spawn(process.execPath, [join(root, 'packages/nerve/dist/nerve.mjs'), 'serve', '--config', cfg], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve) => child.stdout.on('data', (d) => { const m = /listening on (\S+)/.exec(String(d)); if (m) resolve(m[1]); }));
  const rss = async () => Number((await import('node:fs')).readFileSync(`/proc/${child.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024;
  const before = await rss();
  const { token } = JSON.parse((await import('node:fs')).readFileSync(join(dir, 'state', 'api.json'), 'utf8'));
  for (let i = 0; i < 20; i++) await fetch(`${url}/api/sessions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ title: `s${i}` }) });
  await new Promise((r) => setTimeout(r, 2000));
  console.log(`gateway RSS: ${before.toFixed(1)} MB at start, ${(await rss()).toFixed(1)} MB with 20 sessions`);
  child.kill('SIGTERM');
}
rmSync(dir, { recursive: true, force: true });
