import { execFile, spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { ensureStateDir } from '../config';
import { pidRunning } from '../config/pid-running';
import { askBridge } from '../devices';
import { bridgeEnv } from './bridge-env';
import { configOrThrow } from './config';
import { cliEntry, runFile } from './paths';

const run = promisify(execFile);
const RunInfo = z.object({ pid: z.number().int().positive(), port: z.number().int(), url: z.string(), run: z.string() });
export type RunInfo = z.infer<typeof RunInfo>;

export interface StatusResult {
  running: boolean;
  info: RunInfo | null;
  detail: string;
}

/** The running bridge of this state dir, as its run file says and its pid and port confirm. */
export async function status(env: NodeJS.ProcessEnv = process.env): Promise<StatusResult> {
  const { stateDir } = configOrThrow(env);
  let info: RunInfo;
  try {
    const parsed = RunInfo.safeParse(JSON.parse(await readFile(runFile(stateDir), 'utf8')));
    if (!parsed.success) return { running: false, info: null, detail: `not running (unreadable ${runFile(stateDir)})` };
    info = parsed.data;
  } catch {
    return { running: false, info: null, detail: 'not running' };
  }
  if (!pidRunning(info.pid)) return { running: false, info, detail: `not running (stale run file, pid ${info.pid} is gone)` };
  // The API needs a device; the local devices socket (0600) names the bridge's run instead.
  try {
    const hello = await askBridge(stateDir, { op: 'hello' }, 2000);
    if (hello?.type !== 'hello' || hello.run !== info.run) return { running: false, info, detail: `pid ${info.pid} lives but ${info.url} is another bridge` };
  } catch {
    return { running: false, info, detail: `pid ${info.pid} lives but ${info.url} does not answer` };
  }
  return { running: true, info, detail: `running, pid ${info.pid}, ${info.url}` };
}

/** Whether `systemctl --user` can manage a unit here (it cannot in most containers). */
async function userSystemd(env: NodeJS.ProcessEnv): Promise<boolean> {
  if (env.COLLIE_NO_SYSTEMD === '1') return false;
  try {
    await run('systemctl', ['--user', 'show-environment'], { timeout: 2000, env });
    return true;
  } catch {
    return false;
  }
}

const UNIT = 'collie.service';

/** `collie start`: the bridge in the background, under systemd --user where it runs, else detached with a pid file. */
export async function start(env: NodeJS.ProcessEnv = process.env, log = (l: string) => process.stdout.write(`${l}\n`)): Promise<RunInfo> {
  const before = await status(env);
  if (before.running && before.info) {
    log(`Collie bridge already ${before.detail}`);
    return before.info;
  }
  const { stateDir } = configOrThrow(env);
  await ensureStateDir(stateDir);
  await rm(runFile(stateDir), { force: true });
  if (await userSystemd(env)) {
    const dir = join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'systemd', 'user');
    await mkdir(dir, { recursive: true });
    const passed = Object.entries(bridgeEnv(env)).filter(([k]) => k.startsWith('COLLIE_') || k === 'TMUX_TMPDIR' || k === 'XDG_STATE_HOME' || k === 'MALLOC_ARENA_MAX');
    const unit = [
      '[Unit]',
      'Description=Collie bridge',
      '',
      '[Service]',
      `ExecStart=${process.execPath} ${cliEntry} serve`,
      ...passed.map(([k, v]) => `Environment=${JSON.stringify(`${k}=${v}`)}`),
      'Restart=on-failure',
      '',
      '[Install]',
      'WantedBy=default.target',
      '',
    ].join('\n');
    await writeFile(join(dir, UNIT), unit);
    await run('systemctl', ['--user', 'daemon-reload'], { env });
    await run('systemctl', ['--user', 'start', UNIT], { env });
  } else {
    const logFd = openSync(join(stateDir, 'bridge.log'), 'a', 0o600);
    const child = spawn(process.execPath, [cliEntry, 'serve', '--no-qr'], { detached: true, stdio: ['ignore', logFd, logFd], env: bridgeEnv(env) });
    child.unref();
    closeSync(logFd);
  }
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const s = await status(env);
    if (s.running && s.info) {
      log(`Collie bridge started: ${s.info.url} (pid ${s.info.pid}; log ${join(stateDir, 'bridge.log')})`);
      return s.info;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`collie start: the bridge did not come up within 15 s; see ${join(stateDir, 'bridge.log')}`);
}

/** `collie stop`: ask the running bridge to stop and wait until it has. */
export async function stop(env: NodeJS.ProcessEnv = process.env, log = (l: string) => process.stdout.write(`${l}\n`)): Promise<boolean> {
  const s = await status(env);
  if (!s.info || !pidRunning(s.info.pid)) {
    log('Collie bridge is not running');
    return false;
  }
  if (await userSystemd(env)) await run('systemctl', ['--user', 'stop', UNIT], { env }).catch(() => undefined);
  if (pidRunning(s.info.pid)) process.kill(s.info.pid, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (pidRunning(s.info.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (pidRunning(s.info.pid)) throw new Error(`collie stop: pid ${s.info.pid} did not stop within 10 s`);
  log(`Collie bridge stopped (pid ${s.info.pid})`);
  return true;
}
