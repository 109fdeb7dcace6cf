// tmux 3.3a's server against bridges killed with -9, side by side: a control client's input on a
// socket of its own (the bridge before 2026-12-07) and on its output's socket (oneSocket, now).
// For each layout: a private server with 8 drawing panes and 12 busy ones; each round starts a
// stand-in bridge (bench/tmux-kill/stand-in.mjs, 12 control clients read late), kills it with -9
// 0.2–1 s later, and waits 1 s. It counts rounds until the server ends (the kernel's log names a
// segfault; an exit without one is tmux's `fatal`), up to `rounds`.
//
//   node bench/tmux-kill.mjs [rounds=200]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './lib.mjs';

const rounds = Number(process.argv[2] ?? 200);
const standIn = join(root, 'bench/tmux-kill/stand-in.mjs');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function run(layout) {
  const dir = mkdtempSync(join(tmpdir(), 'collie-tmux-kill-'));
  const socket = join(dir, 'socket');
  const tmux = (...args) => execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, TMUX: '' } }).trim();
  const draw = 'while :; do head -c 3000 /dev/urandom | base64; sleep 0.0$((RANDOM % 10)); done';
  const busy = 'while :; do seq 1 20000; done';
  tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'draw', '-x', '120', '-y', '40', draw);
  for (let i = 0; i < 7; i++) tmux('new-window', '-t', 'draw', draw);
  tmux('new-session', '-d', '-s', 'busy', busy);
  for (let i = 0; i < 11; i++) tmux('new-window', '-t', 'busy', busy);
  const pid = tmux('display-message', '-p', '#{pid}');
  const alive = () => {
    try {
      return tmux('display-message', '-p', '#{pid}') === pid;
    } catch {
      return false;
    }
  };
  let done = 0;
  for (; done < rounds && alive(); done++) {
    const bridge = spawn(process.execPath, [standIn, socket, '12', layout], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((r) => bridge.stdout.once('data', r));
    await sleep(200 + Math.random() * 800);
    bridge.kill('SIGKILL');
    await new Promise((r) => bridge.once('exit', r));
    await sleep(1_000);
  }
  const survived = alive();
  if (survived) tmux('kill-server');
  rmSync(dir, { recursive: true, force: true });
  return { layout, rounds: done, survived, pid };
}

const results = await Promise.all(['split', 'one'].map(run));
for (const r of results) console.log(`${r.layout.padEnd(6)} ${r.survived ? `server lived through ${r.rounds} kills` : `server ${r.pid} ended after kill ${r.rounds}`}`);
