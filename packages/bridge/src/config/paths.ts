/**
 * Where Collie keeps things, from the environment alone (no I/O).
 *
 * - config: `$COLLIE_CONFIG_DIR`, else `~/.config/collie`
 * - state: `$COLLIE_STATE_DIR`, else `$XDG_STATE_HOME/collie`, else `~/.local/state/collie`
 * - a named instance (`COLLIE_INSTANCE=<name>`) lives in `instances/<name>/` under both, so
 *   it has its own `.env` (and so its own port), its own sockets, tokens and walky log, and
 *   never reads or writes the default instance's. `default` names the default instance.
 * - tmux sockets: `<COLLIE_TMUX_TMPDIR, else TMUX_TMPDIR, else /tmp>/tmux-<uid>`, where tmux
 *   itself puts them.
 */
import { isAbsolute, join } from 'node:path';

/** The environment, as `process.env` has it. */
export type Env = Readonly<Record<string, string | undefined>>;

/** A path problem, named by its variable. */
export class PathError extends Error {
  constructor(readonly variable: string, message: string) {
    super(`${variable}: ${message}`);
  }
}

const INSTANCE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/;

function value(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === '' ? undefined : v;
}

function absolute(env: Env, name: string): string | undefined {
  const v = value(env, name);
  if (v !== undefined && !isAbsolute(v)) {
    throw new PathError(name, `${JSON.stringify(v)} is not an absolute path`);
  }
  return v;
}

/** The instance name, or null for the default instance. */
export function instanceName(env: Env): string | null {
  const v = value(env, 'COLLIE_INSTANCE');
  if (v === undefined || v === 'default') return null;
  if (!INSTANCE.test(v)) {
    throw new PathError('COLLIE_INSTANCE', `${JSON.stringify(v)} is not an instance name (letters, digits, '.', '_', '-'; at most 40)`);
  }
  return v;
}

const forInstance = (dir: string, instance: string | null) => (instance === null ? dir : join(dir, 'instances', instance));

/** The config directory of an instance. */
export function configDirOf(env: Env, home: string, instance: string | null): string {
  return forInstance(absolute(env, 'COLLIE_CONFIG_DIR') ?? join(home, '.config', 'collie'), instance);
}

/** The state directory of an instance. */
export function stateDirOf(env: Env, home: string, instance: string | null): string {
  // Per the XDG base directory spec, a relative XDG_STATE_HOME is invalid and ignored.
  const xdg = value(env, 'XDG_STATE_HOME');
  const base =
    absolute(env, 'COLLIE_STATE_DIR') ??
    (xdg !== undefined && isAbsolute(xdg) ? join(xdg, 'collie') : join(home, '.local', 'state', 'collie'));
  return forInstance(base, instance);
}

/** The directory tmux puts `tmux-<uid>/` in, and that socket directory. */
export function tmuxDirsOf(env: Env, uid: number): { tmpdir: string; socketDir: string } {
  const tmpdir = absolute(env, 'COLLIE_TMUX_TMPDIR') ?? value(env, 'TMUX_TMPDIR') ?? '/tmp';
  return { tmpdir, socketDir: join(tmpdir, `tmux-${uid}`) };
}
