// `collie walky send` to an idle real Claude Code pane, command start → receipt printed (the
// command's exit), side by side in one run with the bridge's own POST /api/panes/:id/send to
// the same pane; `collie walky who` alone; and once, the held case: a send into the pane on a
// 30 s turn, start → the CLI's exit (the page's 15 s, with "queued" and "check later"). The sender is the testkit's stand-in agent in
// its own pane, so the bridge proves the caller's pane from /proc as it does for any agent.
// Run after `npm run build`:  node bench/walky-latency.mjs [rounds=20]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { deviceToken, paneRunner, quantile, root } from './lib.mjs';

const ROUNDS = Number(process.argv[2] ?? 20);
// The binary the installed skill names, as agents run it.
const CLI = join(root, 'packages/cli/bin/collie.cjs');
// COLLIE_BENCH_CLI_BEFORE=<another build's collie binary>: its `walky who` is timed beside this one's, round by round.
const BEFORE = process.env.COLLIE_BENCH_CLI_BEFORE ?? null;
const kit = await import(join(root, 'packages/testkit/dist/bench-kit.mjs'));
const tmux = await kit.startTmux();
const api = await kit.startMessagesApi({ fallback: kit.plainReply('Noted.') });
const claude = await kit.startClaude(tmux, api);
const state = mkdtempSync(join(tmpdir(), 'collie-bench-walky-'));
const env = { COLLIE_STATE_DIR: state, COLLIE_CONFIG_DIR: join(state, 'config') };
const fifo = join(state, 'fifo');
execFileSync('mkfifo', [fifo]);
await tmux.newSession('sender', { cmd: [process.execPath, join(root, 'packages/testkit/fake-agent/claude'), 'fresh-idle'], env: { ...env, COLLIE_FAKE_FIFO: fifo } });
const auth = deviceToken({ ...process.env, TMUX_TMPDIR: tmux.tmpDir, ...env });
const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--no-qr'], { env: { ...process.env, TMUX_TMPDIR: tmux.tmpDir, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });

/** Run the CLI as the stand-in agent's child; resolves with its output and spawn → exit ms. */
const runInPane = paneRunner(fifo, state);
const inPane = (args, argv = [process.execPath, CLI, ...args]) => runInPane(argv);

try {
  const url = await new Promise((resolve) => child.stdout.on('data', (d) => { const m = /listening on (\S+)/.exec(String(d)); if (m) resolve(m[1]); }));
  const paneIdle = async () => {
    for (;;) {
      const snap = await (await fetch(`${url}/api/snapshot`, { headers: auth })).json();
      const p = snap.panes.find((x) => x.tmuxId === claude.paneId);
      if (p && p.harness === 'claude' && (p.state === 'idle' || p.state === 'done') && p.draft === null) return p;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const settle = async (needle) => {
    const q = await api.waitForRequest((q) => q.kind === 'main' && q.prompt.includes(needle));
    await claude.waitForScreen((s) => kit.claudeInputReady(s) && !kit.claudeWorking(s));
    return q.prompt;
  };
  const postOnce = async (i, text, tag) => {
    const pane = await paneIdle();
    const t0 = performance.now();
    const res = await fetch(`${url}/api/panes/${encodeURIComponent(pane.id)}/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ text, request_id: `bench-${tag}-${process.pid}-${i}` }) });
    const { receipt } = await res.json();
    if (receipt.outcome !== 'typed into the pane') throw new Error(`post ${i}: ${receipt.outcome}`);
    const ms = performance.now() - t0;
    await settle(text.slice(0, 40));
    return ms;
  };
  const walky = [];
  const post = [];
  const postSame = [];
  const who = [];
  const bare = [];
  const whoBefore = [];
  for (let i = 0; i < ROUNDS; i++) {
    let pane = await paneIdle();
    const r = await inPane(['walky', 'send', pane.address, `walky bench ${i}`]);
    if (r.code !== 0 || !r.out.includes('typed into the pane')) throw new Error(`walky send ${i}: ${r.out}${r.err}`);
    walky.push(r.ms);
    const id = r.out.split('\n')[0];
    const prompt = await settle(id);
    // The same send with text as long as the header the walky send typed (the typed line is longer
    // than "post bench i", and a longer paste takes the TUI longer to draw).
    const header = prompt.slice(prompt.indexOf(`[walky-talky ${id}]`)).split('\n')[0];
    postSame.push(await postOnce(i, header.replaceAll(id, `wt_bench${String(i).padStart(7, '0')}x`).replace('[walky-talky', '[walky-bench'), 'same'));

    pane = await paneIdle();
    const t0 = performance.now();
    const res = await fetch(`${url}/api/panes/${encodeURIComponent(pane.id)}/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ text: `post bench ${i}`, request_id: `bench-${process.pid}-${i}` }) });
    const { receipt } = await res.json();
    if (receipt.outcome !== 'typed into the pane') throw new Error(`post ${i}: ${receipt.outcome}`);
    post.push(performance.now() - t0);
    await settle(`post bench ${i}`);

    const w = await inPane(['walky', 'who']);
    if (w.code !== 0) throw new Error(`who: ${w.err}`);
    who.push(w.ms);
    if (BEFORE) {
      const b = await inPane([], [process.execPath, BEFORE, 'walky', 'who']);
      if (b.code !== 0) throw new Error(`who (before): ${b.err}`);
      whoBefore.push(b.ms);
    }
    // Node's own start in the same place, the floor under any CLI.
    bare.push((await inPane([], [process.execPath, '-e', '0'])).ms);
  }
  // The held case: a send into the pane on a 30 s turn answers at the page's 15 s with "queued"
  // and "check later" (or with the receipt, had the turn ended first), and exits 0.
  const pane = await paneIdle();
  api.script(kit.longTurn(30_000, 'Held bench turn done.'));
  await claude.submit('start a long turn for the held bench');
  await claude.waitForScreen((s) => kit.claudeWorking(s));
  const heldRun = await inPane(['walky', 'send', pane.address, 'held bench']);
  const heldLines = heldRun.out.trim().split('\n');
  if (heldRun.code !== 0) throw new Error(`held send: exit ${heldRun.code}: ${heldRun.out}${heldRun.err}`);
  await settle(heldLines[0]);
  const f = (xs, q) => +quantile(xs, q).toFixed(1);
  console.log(JSON.stringify({
    rounds: ROUNDS,
    walkySend: { p50: f(walky, 0.5), p99: f(walky, 0.99) },
    postSend: { p50: f(post, 0.5), p99: f(post, 0.99) },
    cliAddsAtP50: +(f(walky, 0.5) - f(post, 0.5)).toFixed(1),
    postSameText: { p50: f(postSame, 0.5), p99: f(postSame, 0.99) },
    cliAddsOverSameTextAtP50: +(f(walky, 0.5) - f(postSame, 0.5)).toFixed(1),
    walkyWho: { p50: f(who, 0.5), p99: f(who, 0.99) },
    nodeAlone: { p50: f(bare, 0.5), p99: f(bare, 0.99) },
    heldSend: { ms: +heldRun.ms.toFixed(1), exit: heldRun.code, printed: heldLines.slice(2) },
    ...(BEFORE ? { walkyWhoBefore: { cli: BEFORE, p50: f(whoBefore, 0.5), p99: f(whoBefore, 0.99) } } : {}),
    loadAverage: (await import('node:os')).loadavg().map((x) => +x.toFixed(1)),
  }, null, 2));
} finally {
  child.kill('SIGTERM');
  await claude.kill();
  await api.close();
  await tmux.kill();
  rmSync(state, { recursive: true, force: true });
}
