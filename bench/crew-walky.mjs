// Walky across a crew: `collie walky send` from an agent on one member to an idle real Claude Code
// pane on another member, command start → receipt printed (the command's exit: the message goes
// member → lead → member, is typed, and the outcome comes back the same way), side by side in one
// run with the same send on one machine (an agent on the target's own machine, to the same pane).
// Three bridge processes on loopback, each with its own state dir and tmux server; the crew made
// with the CLI. The senders are the testkit's stand-in agent, so each bridge proves the caller's
// pane from /proc as it does for any agent.
// Run after `npm run build`:  node bench/crew-walky.mjs [rounds=15]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { deviceToken, paneRunner, quantile, root } from './lib.mjs';

const ROUNDS = Number(process.argv[2] ?? 15);
const CLI = join(root, 'packages/cli/bin/collie.cjs');
const kit = await import(join(root, 'packages/testkit/dist/bench-kit.mjs'));
const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const tmuxL = await kit.startTmux();
const tmuxA = await kit.startTmux();
const tmuxB = await kit.startTmux();
const api = await kit.startMessagesApi({ fallback: kit.plainReply('Noted.') });
const dirs = Object.fromEntries(['lead', 'alpha', 'beta'].map((n) => [n, mkdtempSync(join(tmpdir(), `collie-bench-crew-walky-${n}-`))]));
const envOf = (name, tmux) => ({ COLLIE_STATE_DIR: dirs[name], COLLIE_CONFIG_DIR: join(dirs[name], 'config'), TMUX_TMPDIR: tmux.tmpDir });
const env = { lead: envOf('lead', tmuxL), alpha: envOf('alpha', tmuxA), beta: envOf('beta', tmuxB) };
const claude = await kit.startClaude(tmuxB, api, { env: { COLLIE_STATE_DIR: dirs.beta, COLLIE_CONFIG_DIR: join(dirs.beta, 'config') } });
await tmuxL.newSession('lead-shell', { cmd: 'cat' });

/** A stand-in agent in its own pane that runs commands on request (through a fifo). */
async function standIn(tmux, name) {
  const fifo = join(dirs[name], 'fifo');
  execFileSync('mkfifo', [fifo]);
  const { COLLIE_STATE_DIR, COLLIE_CONFIG_DIR } = env[name];
  await tmux.newSession(`${name}-agent`, { cmd: [process.execPath, join(root, 'packages/testkit/fake-agent/claude'), 'fresh-idle'], env: { COLLIE_STATE_DIR, COLLIE_CONFIG_DIR, COLLIE_FAKE_FIFO: fifo } });
  const run = paneRunner(fifo, dirs[name]);
  return (args) => run([process.execPath, CLI, ...args]);
}
const fromAlpha = await standIn(tmuxA, 'alpha');
const fromBeta = await standIn(tmuxB, 'beta');

const children = [];
async function serve(name) {
  const e = { ...process.env, ...env[name], COLLIE_NO_SYSTEMD: '1' };
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--no-qr'], { env: e, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const url = await new Promise((resolve) => child.stdout.on('data', (d) => { const m = /listening on (\S+)/.exec(String(d)); if (m) resolve(m[1]); }));
  return { url, headers: deviceToken(e), env: e };
}
const crew = (b, ...args) => execFileSync(process.execPath, [CLI, 'crew', ...args], { env: b.env, encoding: 'utf8' });

try {
  const lead = await serve('lead');
  const alpha = await serve('alpha');
  const beta = await serve('beta');
  crew(lead, 'create', '--name', 'bluefin', '--listen', `127.0.0.1:${await freePort()}`);
  for (const [name, b] of [['alpha', alpha], ['beta', beta]]) {
    const { token } = JSON.parse(crew(lead, 'invite', '--json'));
    crew(b, 'join', token, '--name', name, '--listen', `127.0.0.1:${await freePort()}`);
  }
  const idle = async () => {
    for (;;) {
      const snap = await (await fetch(`${beta.url}/api/snapshot`, { headers: beta.headers })).json();
      const p = snap.panes.find((x) => x.tmuxId === claude.paneId);
      const onLead = (await (await fetch(`${lead.url}/api/snapshot`, { headers: lead.headers })).json()).panes.find((x) => x.id === `@beta/${p?.id}`);
      if (p && onLead?.member?.reachable && p.harness === 'claude' && (p.state === 'idle' || p.state === 'done') && p.draft === null) return p;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const settleOn = async (id) => {
    await api.waitForRequest((q) => q.kind === 'main' && q.prompt.includes(id));
    await claude.waitForScreen((s) => kit.claudeInputReady(s) && !kit.claudeWorking(s));
  };
  const crewMs = [];
  const localMs = [];
  for (let i = 0; i < ROUNDS; i++) {
    let pane = await idle();
    const r = await fromAlpha(['walky', 'send', pane.address.replace(/^local\//, 'beta/'), `crew bench ${i}`]);
    if (r.code !== 0 || !r.out.includes('typed into the pane')) throw new Error(`crew send ${i}: ${r.out}${r.err}`);
    crewMs.push(r.ms);
    await settleOn(r.out.split('\n')[0]);
    pane = await idle();
    const l = await fromBeta(['walky', 'send', pane.address, `local bench ${i}`]);
    if (l.code !== 0 || !l.out.includes('typed into the pane')) throw new Error(`local send ${i}: ${l.out}${l.err}`);
    localMs.push(l.ms);
    await settleOn(l.out.split('\n')[0]);
  }
  const f = (xs, q) => +quantile(xs, q).toFixed(1);
  console.log(JSON.stringify({
    rounds: ROUNDS,
    crewSend: { p50: f(crewMs, 0.5), p99: f(crewMs, 0.99) },
    oneMachineSend: { p50: f(localMs, 0.5), p99: f(localMs, 0.99) },
    crewAddsAtP50: +(f(crewMs, 0.5) - f(localMs, 0.5)).toFixed(1),
    loadAverage: loadavg().map((x) => +x.toFixed(1)),
  }, null, 2));
} finally {
  for (const c of children) c.kill('SIGTERM');
  await claude.kill();
  await api.close();
  for (const t of [tmuxL, tmuxA, tmuxB]) await t.kill();
  for (const d of Object.values(dirs)) rmSync(d, { recursive: true, force: true });
}
