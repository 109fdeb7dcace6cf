import type { Hono } from 'hono';
import type { Pane, SendReceipt } from '@collie/protocol';
import { makeRedactor, type Redactor } from '../redact';
import { UploadStore } from './uploads/store';
import { isRawUpload, uploadRoutes } from './uploads/routes';
import { changesRoutes } from './changes/routes';
import { RepoWatchers } from './changes/watch';
import { paneRoutes, type PaneMux } from './panes/routes';
import { quickReplyRoutes } from './quick-replies/routes';
import { filesRoutes } from './files/routes';
import { newRoutes, type NewRouteDeps } from './new/routes';
import { offeredFolders, rootsOf } from './new/folders';
import { worktreeRoutes } from './worktrees/routes';


/** Sweep old uploads this often (a few directory reads; no process is spawned). */
const SWEEP_MS = 60 * 60 * 1000;

export interface WorkbenchDeps {
  stateDir: string;
  /** `COLLIE_REDACT`: files and diffs are served masked (masked when not given). */
  redact?: Redactor;
  pane: (id: string) => Pane | undefined;
  /** The send protocol (`SendService.send`): every text the workbench types goes through it; `summary`: what the receipt says instead of the text (an attachment's name, not its path). */
  send: (paneId: string, text: string, requestId: string, summary?: string) => Promise<SendReceipt>;
  /** The pane's tmux server through the mux adapter (rename, close); null when the pane is unknown. */
  mux: (id: string) => PaneMux | null;
  /** Rename: the pane's label from now on, or the automatic one again (null). */
  setName: (id: string, name: string | null) => Promise<boolean>;
  /** The config dir, where `quick-replies.json` is kept; null: the defaults, read-only. */
  configDir?: string | null;
  now?: () => number;
  /** New panes: every pane, the hub's events, the tmux sessions and a window opener through the mux adapter. */
  panes: NewRouteDeps['panes'];
  watch: NewRouteDeps['watch'];
  sessions: NewRouteDeps['sessions'];
  open: NewRouteDeps['open'];
  env?: NodeJS.ProcessEnv;
  /** Test knob: how long `changes/wait` holds a request (default 25 s). */
  changesWaitMs?: number;
}

export interface Workbench {
  /** Routes mounted under `/api`, behind the same gates as the rest. */
  routes: Hono;
  /** The upload route: its body is raw bytes, so the JSON gates let it through to its own checks. */
  isRawUpload: (method: string, path: string) => boolean;
  uploads: UploadStore;
  /** New pane's tmux sessions and window opener, for whatever else opens a pane (a resumed session). */
  tmuxSessions: NewRouteDeps['sessions'];
  open: NewRouteDeps['open'];
  stop(): void;
}

/** Work from the phone: `uploads/` (attachments), `changes/` (the diff and review comments), `panes/` (rename, close), `quick-replies/`, `files/` (browse read-only), `new/` (start an agent), `worktrees/` (remove one); each part a folder. */
export async function startWorkbench(d: WorkbenchDeps): Promise<Workbench> {
  const uploads = await UploadStore.open(d.stateDir, d.now);
  const sweep = () => void uploads.sweep().catch((e: unknown) => process.stderr.write(`collie: uploads: sweep failed: ${String(e)}\n`));
  sweep();
  const timer = setInterval(sweep, SWEEP_MS);
  timer.unref();
  const redact = d.redact ?? makeRedactor(true);
  const routes = uploadRoutes({ store: uploads, pane: d.pane, send: d.send });
  const watchers = new RepoWatchers();
  routes.route('/', changesRoutes({ pane: d.pane, send: d.send, watchers, redact, ...(d.changesWaitMs ? { waitMs: d.changesWaitMs } : {}) }));
  routes.route('/', paneRoutes({ pane: d.pane, mux: d.mux, setName: d.setName }));
  routes.route('/', quickReplyRoutes(d.configDir ?? null));
  routes.route('/', filesRoutes({ pane: d.pane, redact }));
  const env = d.env ?? process.env;
  routes.route('/', newRoutes({ panes: d.panes, pane: d.pane, watch: d.watch, send: d.send, configDir: d.configDir ?? null, env, sessions: d.sessions, open: d.open }));
  const paneFolders = () => [...new Set(d.panes().flatMap((p) => (p.cwd ? [p.cwd] : [])))];
  routes.route('/', worktreeRoutes({ panes: d.panes, folders: async () => (await offeredFolders(paneFolders(), rootsOf(env))).filter((f) => f.repo).map((f) => f.path) }));
  return {
    routes,
    isRawUpload,
    uploads,
    tmuxSessions: d.sessions,
    open: d.open,
    stop: () => {
      clearInterval(timer);
      watchers.closeAll();
    },
  };
}
