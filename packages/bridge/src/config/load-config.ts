/**
 * The bridge's configuration: `<config>/.env` merged under the real environment, checked once
 * at start. Problems come back as values naming the variable, never as a crash.
 */
import { readFileSync, statSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { join } from 'node:path';
import { parseDotenv } from './dotenv';
import { configDirOf, instanceName, PathError, stateDirOf, tmuxDirsOf, type Env } from './paths';
import { describeIssues, machineNameFrom, settingsSchema } from './settings';

/** Everything the bridge reads from its environment. */
export interface Config {
  /** The instance name, null for the default instance. */
  readonly instance: string | null;
  readonly configDir: string;
  /** `<configDir>/.env`, read or not. */
  readonly envFile: string;
  /** This instance's state directory (not created here: see `ensureStateDir`). */
  readonly stateDir: string;
  /** 0 means: pick a free port. */
  readonly port: number;
  /** Always a loopback address. */
  readonly host: string;
  /** Extra Host header names allowed, lower case (a tailscale name, say). */
  readonly allowedHosts: readonly string[];
  readonly redact: boolean;
  readonly machine: string;
  /** How long a send waits for a busy pane before it is given up. */
  readonly holdMinutes: number;
  /** COLLIE_WALKY: false refuses every walky message for this machine's panes (`not sent: off`). */
  readonly walky: boolean;
  /** `COLLIE_PUBLIC_URL`: the address a phone opens, for the pairing QR code; null: ask tailscale. */
  readonly publicUrl: string | null;
  /** `COLLIE_TRUSTED_USER`: the proxy login let in without a device; null: none. */
  readonly trustedUser: string | null;
  /** `COLLIE_PUSH_DELAY`: seconds a pane waits on the user before it pushes (default 30). */
  readonly pushDelaySeconds: number;
  /** `COLLIE_PUSH_AWAY`: no push while a device had the app visible this many seconds ago (default 120). */
  readonly pushAwaySeconds: number;
  /** The directory tmux puts `tmux-<uid>/` in. */
  readonly tmuxTmpdir: string;
  /** `<tmuxTmpdir>/tmux-<uid>`: where the user's tmux servers' sockets are. */
  readonly tmuxSocketDir: string;
  /** The merged environment: `.env` under the real environment. Other subsystems read theirs here. */
  readonly env: Readonly<Record<string, string>>;
}

/** The outcome of {@link loadConfig}. Warnings (a bad `.env` line, say) never stop the bridge. */
export type LoadConfigResult =
  | { readonly ok: true; readonly config: Config; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly errors: readonly string[]; readonly warnings: readonly string[] };

/** What {@link loadConfig} takes from the machine, for tests. */
export interface LoadConfigDeps {
  readonly home?: string;
  readonly uid?: number;
  readonly hostname?: string;
}

// These choose which `.env` is read, so a `.env` cannot set them.
const ENV_ONLY = ['COLLIE_CONFIG_DIR', 'COLLIE_INSTANCE'];

function readEnvFile(path: string, warnings: string[]): Record<string, string> {
  let text: string;
  try {
    const st = statSync(path);
    // The file may hold API keys: say so when other users can read it.
    if (st.isFile() && (st.mode & 0o077) !== 0) {
      warnings.push(`${path}: readable by other users (mode ${(st.mode & 0o777).toString(8)}); run chmod 600 on it`);
    }
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') warnings.push(`${path}: not read (${code ?? String(err)})`);
    return {};
  }
  const { vars, problems } = parseDotenv(text);
  for (const p of problems) warnings.push(`${path}:${p.line}: ${p.message}; line skipped`);
  const out: Record<string, string> = { ...vars };
  for (const name of ENV_ONLY) {
    if (name in out) {
      warnings.push(`${path}: ${name} is ignored in .env; set it in the environment`);
      delete out[name];
    }
  }
  return out;
}

/** `f()`, or its PathError recorded and `fallback`. */
function attempt<T>(errors: string[], fallback: T, f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof PathError) errors.push(err.message);
    else throw err;
    return fallback;
  }
}

/**
 * Read the configuration: paths from the environment, `<config>/.env`, then every setting,
 * with the real environment winning over the file (an empty variable counts as unset).
 *
 * @example
 * const loaded = loadConfig();
 * if (!loaded.ok) {
 *   for (const e of loaded.errors) console.error(`collie: ${e}`);
 *   process.exit(2);
 * }
 */
export function loadConfig(env: Env = process.env, deps: LoadConfigDeps = {}): LoadConfigResult {
  const errors: string[] = [];
  const warnings: string[] = [];
  const home = deps.home ?? (env['HOME'] || homedir());
  const instance = attempt(errors, null, () => instanceName(env));
  const configDir = attempt(errors, '', () => configDirOf(env, home, instance));
  const envFile = join(configDir, '.env');
  const fileVars = configDir === '' ? {} : readEnvFile(envFile, warnings);
  const merged: Record<string, string> = { ...fileVars };
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') merged[k] = v;

  const stateDir = attempt(errors, '', () => stateDirOf(merged, home, instance));
  const tmux = attempt(errors, { tmpdir: '', socketDir: '' }, () => tmuxDirsOf(merged, deps.uid ?? process.getuid?.() ?? 0));
  const settings = settingsSchema({ machine: machineNameFrom(deps.hostname ?? hostname()) }).safeParse(merged);
  if (!settings.success) errors.push(...describeIssues(settings.error));
  if (errors.length > 0 || !settings.success) return { ok: false, errors, warnings };

  return {
    ok: true,
    warnings,
    config: {
      instance,
      configDir,
      envFile,
      stateDir,
      ...settings.data,
      tmuxTmpdir: tmux.tmpdir,
      tmuxSocketDir: tmux.socketDir,
      env: merged,
    },
  };
}
