// A send to an idle real Claude Code pane (running offline against the scripted Messages
// API): POST /api/panes/:id/send until the receipt says "typed into the pane" (paste,
// verify in the box, Enter, verify the box emptied). Run after `npm run build`:
//   node bench/send-latency.mjs [sends=30]
// COLLIE_BIN=<path to a built collie.mjs> times another build (e.g. main's, side by side).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { deviceToken, quantile, root } from './lib.mjs';

const SENDS = Number(process.argv[2] ?? 30);
const kit = await import(join(root, 'packages/testkit/dist/bench-kit.mjs'));
const tmux = await kit.startTmux();
const api = await kit.startMessagesApi({ fallback: kit.plainReply('Noted.') });
const claude = await kit.startClaude(tmux, api);
const state = mkdtempSync(join(tmpdir(), 'collie-bench-state-'));
const env = { ...process.env, TMUX_TMPDIR: tmux.tmpDir, COLLIE_STATE_DIR: state, COLLIE_CONFIG_DIR: join(state, 'config') };
const auth = deviceToken(env);
const bin = process.env.COLLIE_BIN ?? join(root, 'packages/cli/dist/collie.mjs');
const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--no-qr'], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const url = await new Promise((resolve) => child.stdout.on('data', (d) => { const m = /listening on (\S+)/.exec(String(d)); if (m) resolve(m[1]); }));
  const paneIdle = async () => {
    for (;;) {
      const snap = await (await fetch(`${url}/api/snapshot`, { headers: auth })).json();
      const p = snap.panes.find((x) => x.tmuxId === claude.paneId);
      if (p && p.harness === 'claude' && (p.state === 'idle' || p.state === 'done') && p.draft === null) return p.id;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const lat = [];
  for (let i = 0; i < SENDS; i++) {
    const id = await paneIdle();
    const t0 = performance.now();
    const res = await fetch(`${url}/api/panes/${encodeURIComponent(id)}/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ text: `bench message ${i}`, request_id: `bench-${process.pid}-${i}` }) });
    const { receipt } = await res.json();
    const ms = performance.now() - t0;
    if (receipt.outcome !== 'typed into the pane') throw new Error(`send ${i}: ${receipt.outcome}`);
    lat.push(ms);
    await api.waitForRequest((q) => q.kind === 'main' && q.prompt === `bench message ${i}`);
    await claude.waitForScreen((s) => s.includes('Noted.') && kit.claudeInputReady(s) && !kit.claudeWorking(s));
  }
  const f = (q) => +quantile(lat, q).toFixed(1);
  console.log(JSON.stringify({ sends: SENDS, p50: f(0.5), p99: f(0.99), max: +Math.max(...lat).toFixed(1) }, null, 2));
} finally {
  child.kill('SIGTERM');
  await claude.kill();
  await api.close();
  await tmux.kill();
  rmSync(state, { recursive: true, force: true });
}
