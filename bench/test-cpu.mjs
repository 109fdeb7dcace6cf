// Where a command's CPU goes, by kind of process (npm test unless a command is given): the real
// agents, Chromium, tmux, the test processes with their in-process bridges, git, and so on.
//   node bench/test-cpu.mjs [--json file] [-- command args…]
// Every second it reads /proc/<pid>/stat of every process started since (tmux servers leave the
// command's tree when they daemonize, and the agents in their panes with them): a process's own
// ticks as they grow, and what its children that ended between two reads spent (the growth of
// its cutime/cstime less what was already counted for them), so short-lived ones (git, tmux
// commands) count too. The machine's busy time from /proc/stat is printed beside the sum.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const own = dash < 0 ? argv : argv.slice(0, dash);
const cmd = dash < 0 ? ['npm', 'test'] : argv.slice(dash + 1);
const ji = own.indexOf('--json');
const jsonOut = ji < 0 ? null : own[ji + 1];
const HZ = 100;

/** The kind of a process, from its command line (read once, when first seen). */
export function kindOf(comm, cmdline) {
  const c = cmdline.join(' ');
  const exe = basename(cmdline[0] ?? comm);
  if (/chrom/i.test(exe) || /chrom/i.test(comm)) return 'chromium';
  if (/claude-agent-sdk|\/claude$/.test(cmdline[0] ?? '') || exe === 'claude') return 'Claude Code';
  if (/gemini/i.test(c)) return 'Gemini CLI';
  if (/opencode/i.test(c)) return 'OpenCode';
  if (/codex/i.test(exe) || /@openai\/codex/.test(c)) return 'Codex';
  if (/oh-my-pi|\/omp(\/|$| )/.test(c)) return 'omp';
  if (/pi-coding-agent|\/bin\/pi( |$)/.test(c)) return 'pi';
  if (/^tmux/.test(comm) || exe === 'tmux') return 'tmux';
  if (/fake-agent|bench\/soak\/agent/.test(c)) return 'stand-in agents';
  if (/nerve\.mjs|nerve serve/.test(c)) return 'Nerve';
  if (/soak/.test(c)) return 'the soak';
  if (/vitest/.test(c)) return 'test processes (vitest, in-process bridges)';
  if (/bridge\/dist|cli\/dist|collie(\.mjs)? /.test(c)) return 'bridge processes';
  if (exe === 'git' || /^git/.test(comm)) return 'git';
  if (/esbuild|tsc|typecheck|eslint/.test(c)) return 'build, typecheck, lint';
  if (/^(npm|node)$/.test(exe) && /npm|scripts\/test/.test(c)) return 'npm and the test script';
  return comm || exe || '?';
}

function readStat(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = s.lastIndexOf(')');
    const f = s.slice(close + 2).split(' ');
    return { comm: s.slice(s.indexOf('(') + 1, close), ppid: Number(f[1]), own: Number(f[11]) + Number(f[12]), kids: Number(f[13]) + Number(f[14]), start: f[19] };
  } catch {
    return null;
  }
}

function cmdlineOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

function busyTicks() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return f[0] + f[1] + f[2] + f[5] + f[6] + f[7];
}

const procs = () => readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map(Number);
/** Processes there before the command (pid and start time): not counted. */
const before = new Set(procs().map((pid) => `${pid}:${readStat(pid)?.start}`));
const t0 = Date.now();
const busy0 = busyTicks();
const child = spawn(cmd[0], cmd.slice(1), { stdio: 'inherit' });
/** pid → what was counted for it so far and its kind. */
const seen = new Map();
const byKind = new Map();
const add = (kind, ticks) => ticks > 0 && byKind.set(kind, (byKind.get(kind) ?? 0) + ticks);

function sampleOnce() {
  const now = new Map();
  for (const pid of procs()) {
    const st = readStat(pid);
    if (st && pid !== process.pid && !before.has(`${pid}:${st.start}`)) now.set(pid, st);
  }
  const under = now.keys();
  // Children that ended since the last read: their parent's cutime grew by their whole life.
  const gone = new Map();
  for (const [pid, s] of seen) {
    if (now.has(pid)) continue;
    gone.set(s.ppid, [...(gone.get(s.ppid) ?? []), s]);
    seen.delete(pid);
  }
  for (const pid of under) {
    const st = now.get(pid);
    let s = seen.get(pid);
    if (!s) {
      s = { kind: kindOf(st.comm, cmdlineOf(pid)), own: 0, kids: st.kids, ppid: st.ppid };
      seen.set(pid, s);
    }
    add(s.kind, st.own - s.own);
    s.own = st.own;
    // What ended children spent that no read of them saw.
    const ended = gone.get(pid) ?? [];
    const counted = ended.reduce((a, c) => a + c.own + c.kidsCounted, 0);
    const unseen = st.kids - s.kids - counted;
    if (unseen > 0) add(ended.length === 1 ? ended[0].kind : `short-lived children of ${s.kind}`, unseen);
    s.kidsCounted = (s.kidsCounted ?? 0) + counted + Math.max(0, unseen);
    s.kids = st.kids;
  }
}

const timer = setInterval(sampleOnce, 1000);
const code = await new Promise((r) => child.once('exit', (c) => r(c ?? 1)));
clearInterval(timer);
const wall = (Date.now() - t0) / 1000;
const busy = (busyTicks() - busy0) / HZ;
const rows = [...byKind].sort((a, b) => b[1] - a[1]).map(([kind, t]) => ({ kind, cpuSeconds: t / HZ }));
const sum = rows.reduce((a, r) => a + r.cpuSeconds, 0);
console.log(`\nCPU by kind of process under \`${cmd.join(' ')}\` (exit ${code}; ${wall.toFixed(0)} s wall; the machine busy ${busy.toFixed(0)} CPU s, ${sum.toFixed(0)} counted here):`);
for (const r of rows) console.log(`  ${r.kind.padEnd(48)} ${r.cpuSeconds.toFixed(0).padStart(6)} s  ${((100 * r.cpuSeconds) / sum).toFixed(1).padStart(5)} %`);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ cmd, code, wall, busy, rows }, null, 2));
process.exit(code);
