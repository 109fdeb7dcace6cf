// The soak's world: a private tmux server (its own -L socket and TMUX_TMPDIR) of stand-in agent
// panes, and the built bridge run as its own process whose state dir is a small tmpfs of its own
// (a user and mount namespace made with `unshare -rm`, entered with `nsenter`: no root needed), so
// the soak can kill it (-9 or TERM), start it again on the same port, and fill its disk.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../lib.mjs';

const kit = await import(pathToFileURL(join(root, 'packages/testkit/dist/bench-kit.mjs')).href);
// The environment every bridge process starts with (collie start, its unit and npm start use it too).
const { bridgeEnv: productEnv } = await import(pathToFileURL(join(root, 'packages/bridge/dist/commands.mjs')).href);

const AGENT = join(root, 'bench/soak/agent/claude');
const CLI = join(root, 'packages/cli/dist/collie.mjs');
/** `collie serve` with pushes allowed to the soak's stand-in push service on loopback. */
const SERVE = join(root, 'bench/soak/bridge-main.mjs');
/** The state disk's size: room for the state, small enough to fill at once. */
const STATE_MB = 32;

/** `extraEnv`: more of the bridge's environment (SOAK_PUSH_CA, COLLIE_PUSH_DELAY: bench/soak/pushes.mjs). */
export function startWorld(extraEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'collie-soak-'));
  const logs = join(dir, 'logs');
  const state = join(dir, 'state');
  mkdirSync(logs);
  mkdirSync(state);
  const name = `collie-soak-${process.pid}`;
  const env = { ...process.env, TMUX_TMPDIR: dir, TMUX: '' };
  // The state disk: a tmpfs in a mount namespace of its own (testkit smallDisk); every bridge and tmux enter it.
  let disk = null;
  const diskMade = kit.smallDisk(state, STATE_MB).then((d) => (disk = d));
  const inNs = (argv) => disk.inside(argv);
  const ns = (argv, opts = {}) => disk.run(argv, opts);
  // tmux runs in the namespace too: its server reads the bridge's paste files from the state dir.
  const tmuxArgv = (...args) => inNs(['tmux', '-L', name, '-f', '/dev/null', ...args]);
  const tmux = (...args) => execFileSync(tmuxArgv(...args)[0], tmuxArgv(...args).slice(1), { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  let n = 0;
  /** Every pane the soak made: tmuxId → {fifo, log}. */
  const panes = new Map();
  const sessions = new Set();

  function agentCmd() {
    const i = n++;
    const fifo = join(dir, `fifo-${i}`);
    const log = join(logs, `pane-${i}.jsonl`);
    execFileSync('mkfifo', [fifo]);
    // SOAK_CLI and COLLIE_STATE_DIR: the agent's own `collie walky` calls (bench/soak/walky.mjs).
    return { fifo, log, cmd: `env SOAK_FIFO=${fifo} SOAK_LOG=${log} SOAK_CLI=${CLI} COLLIE_STATE_DIR=${state} ${process.execPath} ${AGENT}` };
  }
  let serverPid = null;
  /** Ends of the world's tmux server that no one asked for (every pane goes with it). */
  const serverExits = [];
  /** Counts and says an end of server `pid`, once. */
  function noteServerEnd(pid) {
    if (serverExits.some((e) => e.pid === pid)) return;
    serverExits.push({ pid, at: Date.now() });
    process.stderr.write(`soak: tmux server ${pid} (${name}) ended, no one asked for it: its panes went with it\n`);
  }
  function hasSession(session) {
    try {
      tmux('has-session', '-t', `=${session}`);
      return true;
    } catch {
      return false;
    }
  }
  function addPane(session) {
    // A session whose last pane went (killed, or its agent ended) is gone from tmux: made again.
    if (sessions.has(session) && !hasSession(session)) sessions.delete(session);
    const a = agentCmd();
    const args = sessions.has(session) ? ['new-window', '-d', '-P', '-F', '#{pane_id}', '-t', session] : ['new-session', '-d', '-P', '-F', '#{pane_id}', '-s', session, '-x', '200', '-y', '60'];
    const tmuxId = tmux(...args, a.cmd);
    // The server's pid, so stop() can end it even when kill-server does not (servers of earlier runs were seen left).
    if (!sessions.has(session)) {
      const pid = Number(tmux('display-message', '-p', '#{pid}'));
      // A new server: the one before it ended (every session of it went, or it died).
      if (serverPid && pid !== serverPid) noteServerEnd(serverPid);
      serverPid = pid;
    }
    sessions.add(session);
    panes.set(tmuxId, { ...a, tmuxId, session, alive: true });
    return tmuxId;
  }

  // Held sends give up after 2 minutes (not 10), so every send is final before the soak's settling ends.
  const bridgeEnv = { ...productEnv(process.env), TMUX_TMPDIR: dir, COLLIE_TMUX_TMPDIR: dir, COLLIE_STATE_DIR: state, COLLIE_CONFIG_DIR: join(state, 'config'), COLLIE_NO_SYSTEMD: '1', COLLIE_HOLD_MINUTES: '2', SOAK_GC_FILE: join(dir, 'gc.json'), ...extraEnv };

  let bridge = null;
  let port = 0;
  async function startBridge() {
    const argv = inNs([process.execPath, '--expose-gc', SERVE, '--port', String(port)]);
    const child = spawn(argv[0], argv.slice(1), { env: bridgeEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    // Every bridge's life and its push lines (`collie: push: …`), to say who sent an ask pushed twice.
    const life = { pid: child.pid, from: Date.now(), push: [] };
    lives.push(life);
    let partial = '';
    child.stderr.on('data', (d) => {
      err = (err + d).slice(-4000);
      // Whole lines only: a line may come in two chunks.
      const lines = (partial + d).split('\n');
      partial = lines.pop().slice(-1000);
      for (const line of lines) if (line.startsWith('collie: push')) life.push.push({ at: Date.now(), line: line.slice(0, 300) });
      if (life.push.length > 200) life.push.splice(0, life.push.length - 200);
    });
    const exited = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
    const url = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      void exited.then((e) => reject(new Error(`bridge exited (${JSON.stringify(e)}): ${out}${err}`)));
    });
    port = Number(new URL(url).port);
    const b = { url, pid: child.pid, exited, child, stderr: () => err, startedAt: Date.now() };
    bridge = b;
    // An exit no one asked for (stopBridge makes `bridge` another first): said, counted, and started
    // again as a service manager would, so the run goes on and the rest is still measured.
    void exited.then(async (e) => {
      if (bridge !== b || stopped) return;
      bridge = null;
      unasked.push({ pid: b.pid, ...e, at: Date.now(), stderr: err.slice(-1500) });
      process.stderr.write(`soak: bridge ${b.pid} exited on its own (${JSON.stringify(e)}): ${err.slice(-1500)}\n`);
      await startBridge().catch((x) => process.stderr.write(`soak: the bridge did not start again: ${x.message}\n`));
    });
    return b;
  }
  /** Bridge exits no one asked for (a crash), with the tail of their stderr. */
  const unasked = [];
  /** Every bridge started: pid, start time, its push lines. */
  const lives = [];
  let stopped = false;

  return {
    dir,
    name,
    /** The bridge's memory just after a full GC, as its last SIGUSR2 wrote it (bench/soak/bridge-main.mjs), or null. */
    gcMemory() {
      try {
        return JSON.parse(readFileSync(join(dir, 'gc.json'), 'utf8'));
      } catch {
        return null;
      }
    },
    state,
    tmux,
    /** argv of a tmux command on the world's server, in its namespace (bench/soak/real-panes.mjs runs it async). */
    tmuxArgv,
    tmuxEnv: env,
    panes,
    sessions,
    addPane,
    async ready() {
      await diskMade;
      mkdirSync(join(dir, 'unused'), { recursive: true });
    },
    /** A device token made by `collie token` in the bridge's state dir, as a user would. */
    token(deviceName) {
      const t = ns([process.execPath, CLI, 'token', '--name', deviceName], { env: bridgeEnv, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      return { authorization: `Bearer ${t}` };
    },
    /** A `collie` command run in the bridge's namespace and environment (`durable add …`). */
    cli(...args) {
      return ns([process.execPath, CLI, ...args], { env: bridgeEnv, stdio: ['ignore', 'pipe', 'pipe'] }).trim();
    },
    /** The same, not blocking the soak's own loop (`crew join` goes through the soak's fault proxy). */
    cliAsync(...args) {
      const argv = inNs([process.execPath, CLI, ...args]);
      return new Promise((resolve, reject) => execFile(argv[0], argv.slice(1), { env: bridgeEnv, encoding: 'utf8' }, (err, out, stderr) => (err ? reject(new Error(`${args.join(' ')}: ${out}${stderr}`)) : resolve(out.trim()))));
    },
    startBridge,
    unasked,
    lives,
    serverExits,
    /** Notes an end of the tmux server no one asked for, if it has ended. */
    watchServer() {
      if (!stopped && serverPid && !running(serverPid)) noteServerEnd(serverPid);
    },
    get bridge() {
      return bridge;
    },
    async stopBridge(signal) {
      const b = bridge;
      bridge = null;
      b.child.kill(signal);
      return b.exited;
    },
    killPane(tmuxId) {
      const p = panes.get(tmuxId);
      if (p) Object.assign(p, { alive: false, killedAt: Date.now() });
      try {
        tmux('kill-pane', '-t', tmuxId);
      } catch {}
    },
    killSession(session) {
      for (const p of panes.values()) if (p.session === session) Object.assign(p, { alive: false, killedAt: Date.now() });
      sessions.delete(session);
      try {
        tmux('kill-session', '-t', session);
      } catch {}
    },
    /** Free bytes on the state disk. */
    stateFree: () => disk.free(),
    /** Fills the state disk to its last megabyte. */
    fillState: () => disk.fill(1024 * 1024),
    unfillState: () => disk.unfill(),
    /** Every file of the state dir: relative path → its text (read inside the namespace). */
    stateFiles() {
      const list = ns(['find', state, '-type', 'f']).trim().split('\n').filter(Boolean);
      const out = new Map();
      for (const f of list) {
        if (f === join(state, '.fill')) continue;
        // A temporary file of an atomic write may be renamed away between find and cat.
        try {
          out.set(f.slice(state.length + 1), ns(['cat', f], { maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] }));
        } catch {}
      }
      return out;
    },
    /** What the panes really received: per log file, its JSON lines. */
    received() {
      const out = new Map();
      for (const p of panes.values()) {
        let text = '';
        try {
          text = readFileSync(p.log, 'utf8');
        } catch {}
        out.set(p.tmuxId, text.split('\n').filter(Boolean).map((l) => JSON.parse(l)));
      }
      return out;
    },
    logFiles: () => readdirSync(logs),
    /** Panes of this world whose input is switched off (`select-pane -d`): none once every send has ended. */
    inputsOff() {
      try {
        return tmux('list-panes', '-a', '-F', '#{pane_id} #{pane_input_off}').split('\n').filter((l) => l.endsWith(' 1')).map((l) => l.split(' ')[0]);
      } catch {
        return [];
      }
    },
    /** `tmux -C` clients on this world's server still running (call once no bridge runs: every one is left behind). */
    controlClientsLeft() {
      let n = 0;
      for (const pid of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
        let argv;
        try {
          argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        } catch {
          continue;
        }
        if (argv[0] === 'tmux' && argv.includes('-C') && argv.some((a) => a.startsWith(`${dir}/`)) && running(Number(pid))) n++;
      }
      return n;
    },
    stop() {
      stopped = true;
      try {
        bridge?.child.kill('SIGKILL');
      } catch {}
      let why = 'kill-server answered';
      try {
        tmux('kill-server');
      } catch (err) {
        why = String(err.stderr || err.message).trim().slice(0, 200);
      }
      const deadline = Date.now() + 2000;
      while (serverPid && running(serverPid) && Date.now() < deadline) execFileSync('sleep', ['0.05']);
      if (serverPid && running(serverPid)) {
        process.stderr.write(`soak: tmux server ${serverPid} (${name}) outlived kill-server (${why}); killed\n`);
        try {
          process.kill(serverPid, 'SIGKILL');
        } catch {}
      }
      // Closed at once when made (the soak may exit right after), else once it is.
      void (disk ? disk.close() : diskMade.then((d) => d.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Whether a process runs: a server that ended and that no one reaps (tmux daemonizes, so its
 * parent is the machine's init, which may not reap) stays in /proc as a zombie.
 */
function running(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
