/**
 * The bridge's configuration: `<config>/.env` merged under the real environment, checked once
 * at start. Problems come back as values naming the variable, never as a crash.
 */
import { hostname } from 'node:os';
import { attempt, statePaths } from './state-paths';
import { tmuxDirsOf, type Env } from './paths';
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
  /** COLLIE_SKILL_SYNC: false stops `collie update` from writing the walky talky skill (it only notes a stale copy). */
  readonly skillSync: boolean;
  /** `COLLIE_PUBLIC_URL`: the address a phone opens, for the pairing QR code; null: ask tailscale. */
  readonly publicUrl: string | null;
  /** `COLLIE_TRUSTED_USER`: the proxy login let in without a device; null: none. */
  readonly trustedUser: string | null;
  /** `COLLIE_TRUSTED_PROXY_USER` as a uid: the proxy's user, whose connections alone may carry that login (default 0, root). */
  readonly trustedProxyUid: number;
  /** `COLLIE_PUSH_DELAY`: seconds a pane waits on the user before it pushes (default 30). */
  readonly pushDelaySeconds: number;
  /** `COLLIE_PUSH_AWAY`: no push while a device had the app visible this many seconds ago (default 120). */
  readonly pushAwaySeconds: number;
  /** `COLLIE_NERVE_API`: Nerve's api.json; null: `<state dir>/nerve/api.json`, Nerve's default. */
  readonly nerveApiFile: string | null;
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
  const { errors, warnings, instance, configDir, envFile, merged, stateDir } = statePaths(env, deps);
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
