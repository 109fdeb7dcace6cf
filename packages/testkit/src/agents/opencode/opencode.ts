import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ChatApi } from '../openai-chat/server';
import { startAgentPane, withAgentDirs, type AgentPane } from '../pane';
import type { TmuxServer } from '../../tmux';
import { agentRequire } from '../installed';
import { writeOpencodeConfig, type OpencodeConfigOptions } from './config';
import { opencodeReady } from './screen';

/** Options of {@link startOpencode}. */
export interface StartOpencodeOptions {
  /** Where it runs. Default: a fresh temp dir, removed by `kill()`. */
  cwd?: string;
  /** Its HOME (holding its XDG dirs: two panes given one share one `opencode.db`). Default: a fresh temp dir, removed by `kill()`. */
  home?: string;
  session?: string;
  permission?: OpencodeConfigOptions['permission'];
  width?: number;
  height?: number;
  /** Default 240 s: a fresh start takes about 5 s on an idle machine, and was seen taking over 100 s under load. */
  readyTimeoutMs?: number;
}

/** A real OpenCode TUI in a pane (its `home` holds the HOME and XDG dirs of this run). */
export type OpencodePane = AgentPane;

/**
 * Starts the real OpenCode TUI (`opencode-ai`, native binary) in a pane of `tmux`, pointed at
 * the scripted chat API `api`, with its own HOME, XDG dirs and config in a temp dir, and waits
 * until its prompt is ready.
 *
 * @example
 * await using api = await startChatApi();
 * await using oc = await startOpencode(tmux, api);
 * api.script(chatReply('Hello.'));
 * await oc.submit('hi');
 */
export async function startOpencode(tmux: TmuxServer, api: ChatApi, opts: StartOpencodeOptions = {}): Promise<OpencodePane> {
  return withAgentDirs('opencode', { home: opts.home, cwd: opts.cwd }, async ({ home, cwd, remove }) => {
    const xdg = (p: string) => join(home, p);
    for (const p of ['.config', '.local/share', '.local/state', '.cache', '.tmp']) await mkdir(xdg(p), { recursive: true, mode: 0o700 });
    const config = await writeOpencodeConfig(join(home, 'collie'), { baseUrl: api.url, permission: opts.permission });
    return startAgentPane(tmux, {
      prefix: 'opencode',
      cmd: [opencodeBinary()],
      cwd,
      env: {
        HOME: home,
        XDG_CONFIG_HOME: xdg('.config'),
        XDG_DATA_HOME: xdg('.local/share'),
        XDG_STATE_HOME: xdg('.local/state'),
        XDG_CACHE_HOME: xdg('.cache'),
        // The binary (Bun) unpacks a 13.7 MB native library into the temp dir at each start and
        // leaves it there when killed: in the agent's own home, it goes with the home.
        TMPDIR: xdg('.tmp'),
        OPENCODE_CONFIG: config,
        // No external plugins: without it each start npm-installs @opencode-ai/plugin into the
        // config dir, from the registry (seen with 1.18.33).
        OPENCODE_PURE: '1',
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_SHARE: '1',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      },
      ready: opencodeReady,
      readyTimeoutMs: opts.readyTimeoutMs ?? 240_000,
      session: opts.session,
      width: opts.width,
      height: opts.height,
      cleanup: remove,
    });
  });
}

/**
 * The native `opencode` binary of `opencode-ai`. npm may skip its postinstall script (install
 * scripts blocked), but 1.18's `bin/opencode.exe` already is the binary; the platform package
 * (`opencode-linux-x64`) is the fallback.
 */
export function opencodeBinary(): string {
  const here = agentRequire();
  try {
    return join(dirname(here.resolve('opencode-ai/package.json')), 'bin', 'opencode.exe');
  } catch {
    return join(dirname(here.resolve(`opencode-${process.platform}-${process.arch}/package.json`)), 'bin', 'opencode');
  }
}
