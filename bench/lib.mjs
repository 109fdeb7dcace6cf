// Shared set-up for the benchmarks: a private tmux server full of stand-in agent panes and
// the built bridge as its own process, so its CPU and memory can be read from /proc.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fakeAgent = (agent) => join(root, 'packages/testkit/fake-agent', agent);

export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/**
 * `panes` stand-in agent panes (Claude unless `agent` names another, drawing `screens`)
 * spread over `sessions` sessions, each drawing from its own FIFO.
 */
export function startAgents({ panes = 50, sessions = 10, agent = 'claude', screens, first = 'fresh-idle', cwdOf } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'collie-bench-'));
  const name = `collie-bench-${process.pid}`;
  const env = { ...process.env, TMUX_TMPDIR: dir, TMUX: '' };
  const tmux = (...args) => execFileSync('tmux', ['-L', name, '-f', '/dev/null', ...args], { env, encoding: 'utf8' }).trim();
  const ids = [];
  for (let i = 0; i < panes; i++) {
    const fifo = join(dir, `fifo-${i}`);
    execFileSync('mkfifo', [fifo]);
    const cmd = `env COLLIE_FAKE_FIFO=${fifo}${screens ? ` COLLIE_FAKE_SCREENS=${screens}` : ''} ${process.execPath} ${fakeAgent(agent)} ${first}`;
    const s = `s${i % sessions}`;
    // `cwdOf(i)`: the pane's own folder (default: this process's).
    const cwd = cwdOf ? ['-c', cwdOf(i)] : [];
    const id = i < sessions ? tmux('new-session', '-d', '-P', '-F', '#{pane_id}', '-s', s, '-x', '220', '-y', '62', ...cwd, cmd) : tmux('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', s, ...cwd, cmd);
    ids.push({ tmuxId: id, fifo, id: `${name}:${id}` });
  }
  return {
    dir,
    name,
    env,
    panes: ids,
    tmux,
    stop() {
      try {
        tmux('kill-server');
      } catch {}
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A bearer token for the bench's state dir, made by `collie token` as a user would: every API
 * call and the events socket need a paired device.
 */
export function deviceToken(env, name = 'bench') {
  const token = execFileSync(process.execPath, [join(root, 'packages/cli/dist/collie.mjs'), 'token', '--name', name], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  return { authorization: `Bearer ${token}` };
}

/** The built bridge (`collie serve`) on a free port, seeing only the agents' tmux dir; `headers` carry its device token. */
export async function startBridgeProcess(agents, extraEnv = {}) {
  const state = mkdtempSync(join(tmpdir(), 'collie-bench-state-'));
  const env = { ...process.env, TMUX_TMPDIR: agents.dir, COLLIE_TMUX_TMPDIR: agents.dir, COLLIE_STATE_DIR: state, COLLIE_CONFIG_DIR: join(state, 'config'), ...extraEnv };
  const headers = deviceToken(env);
  // COLLIE_BENCH_CLI: another build's CLI (a baseline to set beside this tree's).
  const child = spawn(process.execPath, [process.env.COLLIE_BENCH_CLI ?? join(root, 'packages/cli/dist/collie.mjs'), 'serve', '--port', '0', '--no-qr'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`bridge exited (${code}): ${out}`)));
  });
  return {
    url,
    headers,
    pid: child.pid,
    state,
    env,
    stop() {
      // The bridge writes its state as it stops: remove the dir once it has exited.
      child.once('exit', () => rmSync(state, { recursive: true, force: true }));
      child.kill('SIGTERM');
    },
  };
}

/** Wait until the snapshot shows every agent pane read as `harness` and `state`. */
export async function settle(bridge, count, state = 'idle', ms = 60_000, harness = 'claude') {
  const deadline = Date.now() + ms;
  for (;;) {
    const snap = await (await fetch(`${bridge.url}/api/snapshot`, { headers: bridge.headers })).json();
    const ready = snap.panes.filter((p) => p.harness === harness && p.state === state).length;
    if (ready >= count) return snap;
    if (Date.now() > deadline) throw new Error(`only ${ready}/${count} panes settled as ${harness}/${state}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** utime+stime (clock ticks) and RSS (kB) of a process. */
export function procStats(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(f[11]) + Number(f[12]);
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
  return { ticks, rss };
}

export function childPids(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

export function totalForks() {
  return Number(/^processes (\d+)/m.exec(readFileSync('/proc/stat', 'utf8'))[1]);
}

/**
 * Runs commands as children of a stand-in agent (the fake agent's `run` line on its FIFO), as an
 * agent's tool would, so the bridge traces each call to that pane. `dir` holds the answers.
 * Resolves with `{code, out, err, ms}` (ms: spawn → exit).
 */
export function paneRunner(fifo, dir) {
  let n = 0;
  return async (argv) => {
    const out = join(dir, `out-${n++}.json`);
    writeFileSync(fifo, `run ${Buffer.from(JSON.stringify({ argv, out })).toString('base64')}\n`);
    for (;;) {
      try {
        const r = JSON.parse(readFileSync(out, 'utf8'));
        rmSync(out);
        return r;
      } catch {
        await new Promise((res) => setTimeout(res, 10));
      }
    }
  };
}
