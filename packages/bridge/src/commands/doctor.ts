import { execFile } from 'node:child_process';
import { readFile, readdir, stat } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../config';
import { agentsCheck } from '../unread';
import { status } from './daemon';
import { DevicesFile } from '@collie/protocol';
import { devicesFile } from '../devices';
import type { Check } from './doctor-check';
import { walkyChecks } from './doctor-walky';

const run = promisify(execFile);

export type { Check } from './doctor-check';

/** Node 20.19 is the floor the web toolchain needs; tmux 3.2 brought control-mode client flags. */
const MIN_NODE = [20, 19];
const MIN_TMUX = [3, 2];

function atLeast(v: number[], min: number[]): boolean {
  for (let i = 0; i < min.length; i++) {
    if ((v[i] ?? 0) !== min[i]) return (v[i] ?? 0) > min[i]!;
  }
  return true;
}

/** `collie doctor`: one check per line; the caller exits non-zero when one fails. */
export async function doctor(env: NodeJS.ProcessEnv = process.env): Promise<Check[]> {
  const checks: Check[] = [];
  const nodeV = process.versions.node.split('.').map(Number);
  checks.push({ name: 'node', ok: atLeast(nodeV, MIN_NODE), detail: `v${process.versions.node} (need ≥ ${MIN_NODE.join('.')})` });

  try {
    const { stdout } = await run('tmux', ['-V'], { timeout: 3000 });
    const m = /(\d+)\.(\d+)/.exec(stdout);
    const v = m ? [Number(m[1]), Number(m[2])] : [0, 0];
    checks.push({ name: 'tmux', ok: atLeast(v, MIN_TMUX), detail: `${stdout.trim()} (need ≥ ${MIN_TMUX.join('.')})` });
  } catch {
    checks.push({ name: 'tmux', ok: false, detail: 'not found on PATH: install it (apt-get install tmux, brew install tmux)' });
  }

  const loaded = loadConfig(env);
  if (!loaded.ok) {
    checks.push({ name: 'config', ok: false, detail: [...loaded.errors, ...loaded.warnings].join('; ') });
    return checks;
  }
  const { config } = loaded;
  checks.push({ name: 'config', ok: loaded.warnings.length === 0, detail: [config.configDir, ...loaded.warnings].join('; ') });

  try {
    const s = await stat(config.stateDir);
    const mode = s.mode & 0o777;
    checks.push({ name: 'state dir', ok: s.isDirectory() && (mode & 0o077) === 0, detail: `${config.stateDir} (mode ${mode.toString(8).padStart(4, '0')}${mode & 0o077 ? ', must be 0700: chmod 700 it' : ''})` });
  } catch {
    checks.push({ name: 'state dir', ok: true, detail: `${config.stateDir} (not created yet; the bridge makes it 0700)` });
  }

  const running = await status(env);
  if (running.running) checks.push({ name: 'port', ok: true, detail: `the bridge is ${running.detail}` });
  else checks.push(await portCheck(config.host, config.port));

  checks.push(await tmuxServers(config.tmuxSocketDir));
  checks.push(await devicesCheck(config.stateDir, config.allowedHosts));
  checks.push(...(await walkyChecks(config, env)));
  checks.push(await agentsCheck(config.stateDir));
  return checks;
}

async function portCheck(host: string, port: number): Promise<Check> {
  if (port === 0) return { name: 'port', ok: true, detail: '0: a free port is picked at start' };
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', (err: NodeJS.ErrnoException) => resolve({ name: 'port', ok: false, detail: `${host}:${port} is taken (${err.code}); set COLLIE_PORT` }));
    srv.listen(port, host, () => srv.close(() => resolve({ name: 'port', ok: true, detail: `${host}:${port} is free` })));
  });
}

async function tmuxServers(socketDir: string): Promise<Check> {
  let names: string[] = [];
  try {
    names = await readdir(socketDir);
  } catch {
    return { name: 'tmux servers', ok: true, detail: `none yet (${socketDir} does not exist): start tmux, or run collie demo` };
  }
  const live: string[] = [];
  for (const n of names) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(join(socketDir, n));
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) live.push(n);
  }
  return { name: 'tmux servers', ok: true, detail: live.length ? `${live.length} found in ${socketDir}: ${live.join(', ')}` : `none running in ${socketDir}` };
}

/** Paired devices, read from the file (never created here). */
async function devicesCheck(stateDir: string, allowedHosts: readonly string[]): Promise<Check> {
  let count = 0;
  try {
    const parsed = DevicesFile.safeParse(JSON.parse(await readFile(devicesFile(stateDir), 'utf8')));
    if (!parsed.success) return { name: 'devices', ok: false, detail: `${devicesFile(stateDir)} is unreadable; the bridge moves it aside at start and every device pairs again` };
    count = parsed.data.devices.filter((d) => d.revokedAt === null).length;
  } catch {
    count = 0;
  }
  const detail = `${count} paired (collie devices list)`;
  if (count === 0 && allowedHosts.length > 0) {
    return { name: 'devices', ok: true, warn: true, detail: `none paired, but COLLIE_ALLOWED_HOSTS names ${allowedHosts.join(', ')}: run collie pair and open the link on your phone` };
  }
  return { name: 'devices', ok: true, detail: count === 0 ? `${detail}: run collie pair to pair your phone` : detail };
}

export function formatChecks(checks: Check[]): string {
  return checks.map((c) => `${!c.ok ? 'FAIL' : c.warn ? 'WARN' : 'ok  '}  ${c.name.padEnd(17)} ${c.detail}`).join('\n');
}
