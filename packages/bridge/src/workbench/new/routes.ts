import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { Hono } from 'hono';
import { NewPaneRequest, RemoveLauncherRequest, SaveLauncherRequest, type LaunchersFile, type NewOptions, type Pane, type SendReceipt } from '@collie/protocol';
import { ApiError, fail } from '../../http/api-error';
import { body } from '../../http/routes/sends';
import { git } from '../changes/git';
import { NO_COMMIT_WORDS } from '../changes/git-words';
import { folderAllowed, offeredFolders, rootsOf } from './folders';
import { KNOWN_AGENTS, offeredLaunchers, savedLaunchers, updateLaunchers } from './launchers';

/** At most this many words in a launcher's command (the protocol's `Launcher`). */
const MAX_COMMAND_WORDS = 40;

/** How long a first message waits for its new agent to be idle before it is sent anyway (the send protocol then holds it). */
const FIRST_MESSAGE_WAIT_MS = 120_000;

export interface NewRouteDeps {
  panes: () => Pane[];
  pane: (id: string) => Pane | undefined;
  /** Called on every event of the hub; returns the unsubscribe. */
  watch: (onEvent: () => void) => () => void;
  send: (paneId: string, text: string, requestId: string) => Promise<SendReceipt>;
  configDir: string | null;
  env: NodeJS.ProcessEnv;
  /** The tmux servers the bridge follows and their sessions (through the mux adapter). */
  sessions: () => Promise<{ server: string; session: string }[]>;
  /** Opens a window (a new session when `session` is null) in `folder` running `argv` (no shell) through the mux adapter; the new tmux pane id. */
  open: (server: string, session: string | null, folder: string, argv: readonly string[]) => Promise<string>;
}

/** The worktree folder of a new branch: `<repo>/../<repo>-worktrees/<branch>`, or `<dir>/<repo>/<branch>` under `COLLIE_WORKTREE_DIR`. Pure. */
export function worktreeFolder(repoRoot: string, branch: string, dir: string | null = null): string {
  return dir ? join(dir, basename(repoRoot), branch) : join(dirname(repoRoot), `${basename(repoRoot)}-worktrees`, branch);
}

/** `COLLIE_WORKTREE_DIR`: an absolute folder where new worktrees go; anything else is ignored. */
export function worktreeDirOf(env: NodeJS.ProcessEnv): string | null {
  const d = env.COLLIE_WORKTREE_DIR;
  return d && isAbsolute(d) ? d : null;
}

/** Resolves once the pane is known and, for an agent, idle (or after `ms`). */
function whenReady(d: NewRouteDeps, id: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const ready = () => {
      const p = d.pane(id);
      return p !== undefined && (p.harness === 'shell' || p.state === 'idle');
    };
    if (ready()) return resolve();
    const done = () => {
      clearTimeout(timer);
      stop();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stop = d.watch(() => {
      if (ready()) done();
    });
  });
}

/** `GET /api/new` (what the New page offers) and `POST /api/panes/new`. */
export function newRoutes(d: NewRouteDeps): Hono {
  const r = new Hono();
  const paneFolders = () => [...new Set(d.panes().flatMap((p) => (p.cwd ? [p.cwd] : [])))];
  r.get('/new', async (c) => {
    const [offered, launchers, sessions] = await Promise.all([offeredFolders(paneFolders(), rootsOf(d.env)), offeredLaunchers(d.configDir, d.env), d.sessions()]);
    // A saved launcher's folder is offered too (after the panes' own), so choosing it picks its folder.
    const folders = [...offered];
    for (const l of launchers) {
      if (l.folder && !folders.some((f) => f.path === l.folder) && existsSync(l.folder)) folders.push({ path: l.folder, repo: existsSync(join(l.folder, '.git')), recent: false });
    }
    const answer: NewOptions = { folders, launchers, sessions, worktreeDir: worktreeDirOf(d.env) };
    return c.json(answer);
  });
  r.post('/panes/new', async (c) => {
    const b = await body(c, NewPaneRequest);
    if (b instanceof ApiError) return fail(c, b);
    const launcher = (await offeredLaunchers(d.configDir, d.env)).find((l) => l.name === b.launcher);
    if (!launcher) return fail(c, new ApiError('bad_request', `new: no launcher '${b.launcher}' (a saved one, an agent found on PATH, or shell)`));
    // A saved launcher's own folder is allowed: the config file (written by hand, or from the phone after this same check) names it.
    const own = launcher.folder !== undefined && launcher.folder === b.folder;
    if (!own && !(await folderAllowed(b.folder, paneFolders(), rootsOf(d.env)))) return fail(c, new ApiError('bad_request', `new: '${b.folder.slice(0, 200)}' is neither a pane's folder nor inside COLLIE_ROOTS`));
    const argv = [...launcher.command, ...(b.args ?? [])];
    if (argv.length > MAX_COMMAND_WORDS) return fail(c, new ApiError('bad_request', `new: the command is over ${MAX_COMMAND_WORDS} words`));
    const sessions = await d.sessions();
    const servers = [...new Set(sessions.map((s) => s.server))];
    const server = b.server ?? (servers.length === 1 ? servers[0] : undefined);
    if (!server || !servers.includes(server)) return fail(c, new ApiError('bad_request', b.server ? `new: no tmux server '${b.server.slice(0, 100)}'` : 'new: name the tmux server (more than one, or none, is followed)'));
    if (b.session !== null && !sessions.some((s) => s.server === server && s.session === b.session)) return fail(c, new ApiError('bad_request', `new: no session '${b.session.slice(0, 100)}' on ${server}`));
    let folder = b.folder;
    if (b.worktree) {
      const root = (await git(b.folder, ['rev-parse', '--show-toplevel'])).replace(/\n$/, '');
      // A worktree starts from a commit: a new repository has none, and git says so in its own terms.
      if ((await git(root, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { exit1: true })).trim() === '') return fail(c, new ApiError('conflict', `new: ${NO_COMMIT_WORDS}`));
      const target = worktreeFolder(root, b.worktree, worktreeDirOf(d.env));
      if ((await git(root, ['rev-parse', '--verify', '--quiet', `refs/heads/${b.worktree}`], { exit1: true })).trim() !== '') return fail(c, new ApiError('conflict', `new: the branch '${b.worktree}' exists already`));
      if (existsSync(target)) return fail(c, new ApiError('conflict', `new: '${target}' exists already`));
      await git(root, ['worktree', 'add', '-q', '-b', b.worktree, '--', target]);
      folder = target;
    }
    const tmuxPane = await d.open(server, b.session, folder, argv);
    const id = `${server}:${tmuxPane}`;
    if (b.first_message) {
      const text = b.first_message;
      // The first message goes through the send protocol once the agent is idle; its receipt is on the event stream under request_id.
      void whenReady(d, id, FIRST_MESSAGE_WAIT_MS)
        .then(() => d.send(id, text, b.request_id))
        .catch((e: unknown) => process.stderr.write(`collie: new: first message to ${id} failed: ${String(e)}\n`));
    }
    return c.json({ pane: id, folder });
  });
  r.post('/launchers', async (c) => {
    const b = await body(c, SaveLauncherRequest);
    if (b instanceof ApiError) return fail(c, b);
    const dir = d.configDir;
    if (!dir) return fail(c, new ApiError('conflict', 'new: this bridge has no config dir to save launchers in'));
    const builtIn = [...KNOWN_AGENTS, 'shell'] as readonly string[];
    if (builtIn.includes(b.name)) return fail(c, new ApiError('bad_request', `new: '${b.name}' is a built-in launcher's name; choose another`));
    const base = (await offeredLaunchers(dir, d.env)).find((l) => l.name === b.base);
    if (!base) return fail(c, new ApiError('bad_request', `new: no launcher '${b.base}' to start from (a saved one, an agent found on PATH, or shell)`));
    const command = [...base.command, ...b.args];
    if (command.length > MAX_COMMAND_WORDS) return fail(c, new ApiError('bad_request', `new: the command is over ${MAX_COMMAND_WORDS} words`));
    const folder = b.folder ?? base.folder ?? null;
    if (folder !== null && folder !== base.folder && !(await folderAllowed(folder, paneFolders(), rootsOf(d.env)))) {
      return fail(c, new ApiError('bad_request', `new: '${folder.slice(0, 200)}' is neither a pane's folder nor inside COLLIE_ROOTS`));
    }
    const saved = { name: b.name, command, ...(folder !== null ? { folder } : {}) };
    // The newest first: saved launchers are listed in the file's order, before the agents.
    const launchers = await updateLaunchers(dir, (all) => [saved, ...all.filter((l) => l.name !== b.name)]);
    const answer: LaunchersFile = { launchers };
    return c.json(answer);
  });
  r.post('/launchers/remove', async (c) => {
    const b = await body(c, RemoveLauncherRequest);
    if (b instanceof ApiError) return fail(c, b);
    const dir = d.configDir;
    if (!dir || !(await savedLaunchers(dir)).some((l) => l.name === b.name)) return fail(c, new ApiError('not_found', `new: no saved launcher '${b.name}'`));
    const answer: LaunchersFile = { launchers: await updateLaunchers(dir, (all) => all.filter((l) => l.name !== b.name)) };
    return c.json(answer);
  });
  return r;
}
