// An ACP agent's session/request_permission → its card at a WebSocket client of the bridge
// (npm run build first). The built bridge and `collie durable acp -- node script-agent.mjs bench`
// each in their own process, as a person runs them; the agent stamps each request with its
// send time (epoch ms, one machine, one clock).
//   node bench/acp.mjs [requests=200]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { deviceToken, quantile, root } from './lib.mjs';

const N = Number(process.argv[2] ?? 200);
const dir = mkdtempSync(join(tmpdir(), 'collie-bench-acp-'));
mkdirSync(join(dir, 'config'), { recursive: true });
const env = { ...process.env, TMUX_TMPDIR: join(dir, 'tmux'), COLLIE_TMUX_TMPDIR: join(dir, 'tmux'), COLLIE_STATE_DIR: join(dir, 'state'), COLLIE_CONFIG_DIR: join(dir, 'config'), COLLIE_NO_SYSTEMD: '1' };
const headers = deviceToken(env);
const cli = join(root, 'packages/cli/dist/collie.mjs');
const bridge = spawn(process.execPath, [cli, 'serve', '--port', '0', '--no-qr'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
const acp = spawn(process.execPath, [cli, 'durable', 'acp', '--name', 'bench', '--cwd', dir, '--', process.execPath, join(root, 'packages/testkit/src/agents/acp/script-agent.mjs')], { env, stdio: ['ignore', 'ignore', 'ignore'] });
const now = () => performance.timeOrigin + performance.now();
try {
  const url = await new Promise((resolve, reject) => {
    let out = '';
    bridge.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    bridge.once('exit', (code) => reject(new Error(`bridge exited (${code}): ${out}`)));
  });
  const post = async (path, body) => (await fetch(`${url}/api/durable${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
  let ready = false;
  const times = [];
  const seen = new Set();
  let done;
  const finished = new Promise((r) => (done = r));
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/api/events`, { headers });
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString());
    if (m.type === 'durable.agent.updated' && m.agent.name === 'bench' && m.agent.state === 'ready' && m.agent.starters.length) ready = true;
    if (m.type === 'sync.reset' && m.snapshot.durable?.agents.some((x) => x.name === 'bench' && x.state === 'ready' && x.starters.length)) ready = true;
    if (m.type !== 'durable.conversation.updated') return;
    for (const q of m.conversation.questions) {
      const stamp = /^Allow bench (\d+) at ([\d.]+)\?$/.exec(q.title);
      if (!stamp || seen.has(q.id)) continue;
      seen.add(q.id);
      times.push(now() - Number(stamp[2]));
      // The last answer may race the shutdown; its result is not measured.
      post('/answer', { agent: 'bench', conversationId: m.conversation.id, questionId: q.id, version: q.version, answer: { kind: 'permission', option: 'o0' }, request_id: `a-${q.id}` }).catch(() => undefined);
      if (times.length === N) done();
    }
  });
  await new Promise((r) => ws.once('open', r));
  const t0 = Date.now();
  while (!ready) {
    if (Date.now() - t0 > 60_000) throw new Error('the ACP agent did not attach');
    await new Promise((r) => setTimeout(r, 50));
  }
  const started = await post('/starter', { agent: 'bench', starterId: 'new', request_id: 'st-1' });
  await post('/message', { agent: 'bench', conversationId: started.result.conversationId, text: `bench ${N}`, steer: false, request_id: 'm-1' });
  await finished;
  ws.close();
  console.log(JSON.stringify({ what: 'ACP session/request_permission → card event at a WebSocket client', n: N, p50ms: +quantile(times, 0.5).toFixed(2), p99ms: +quantile(times, 0.99).toFixed(2), maxMs: +Math.max(...times).toFixed(2) }, null, 2));
} finally {
  acp.kill('SIGTERM');
  bridge.kill('SIGTERM');
  setTimeout(() => rmSync(dir, { recursive: true, force: true }), 1_000);
}
