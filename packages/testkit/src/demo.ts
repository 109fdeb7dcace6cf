import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOtherAgents } from './agents/demo-agents';
import { saveDemoLaunchers } from './demo-launchers';
import { claudeInputReady, claudePermissionDialog, claudeWorking } from './claude-screen';
import { startClaude, type ClaudePane } from './claude';
import { echoReply, endlessWork, permissionEveryPrompt } from './demo-scripts';
import { startMessagesApi, type MessagesApi } from './messages-api';
import { tempDir, type TempDir } from './temp-dir';
import { listSessions, startTmux, type TmuxServer } from './tmux';

const run = promisify(execFile);

/** Options of {@link startDemo} and {@link runDemo}. */
export interface DemoOptions {
  /** Where progress lines go. Default: stdout. */
  log?: (line: string) => void;
  /** tmux server name. Default `collie-demo`. */
  name?: string;
  /** TMUX_TMPDIR of the server. Default: the user's (`$TMUX_TMPDIR`, else the system temp dir), so a running bridge finds it. */
  tmpDir?: string;
  /** How long each step of the never-ending turn streams. Default 45 s. */
  stepMs?: number;
  /**
   * The bridge's config dir: New offers the demo's agents from its launchers.json (`demo
   * claude`, `demo codex`, `demo gemini`), saved at start and removed at stop. None: not saved.
   */
  configDir?: string;
}

/** Options of {@link runDemo}. */
export interface RunDemoOptions extends DemoOptions {
  /** Stops the demo as SIGINT does. */
  signal?: AbortSignal;
  /** Called once everything is up, before waiting for the stop signal. */
  ready?: (demo: Demo) => void | Promise<void>;
}

/** One pane the demo started. */
export interface DemoPane {
  paneId: string;
  /** `session:window`. */
  target: string;
  role: 'working' | 'permission' | 'idle' | 'shell' | 'codex-approval' | 'gemini-idle';
  /** The pane's own scripted API (Claude panes only). */
  api?: MessagesApi;
}

/** A running demo. */
export interface Demo extends AsyncDisposable {
  readonly tmux: TmuxServer;
  readonly panes: readonly DemoPane[];
  /** Tears everything down: panes, APIs, the tmux server, the project dir. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts the demo: a tmux server (`-L collie-demo` in the user's socket dir) with three real
 * Claude Code panes in session `demo` (one on a turn that never ends, one asking permission
 * for a Bash command, one idle after a reply), beside them a real Codex waiting on a command
 * approval and a real Gemini CLI idle after a reply (each skipped with a printed line when its
 * package is not installed), and a plain shell in session `demo-shell`.
 * Each Claude pane has its own scripted Messages API whose scripts never run dry.
 *
 * @example
 * await using demo = await startDemo({ log: console.log });
 */
export async function startDemo(opts: DemoOptions = {}): Promise<Demo> {
  const log = opts.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const name = opts.name ?? 'collie-demo';
  const tmpDir = opts.tmpDir ?? process.env.TMUX_TMPDIR ?? tmpdir();
  const undo: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const step of undo.splice(0).reverse()) await step().catch(() => undefined);
  };

  try {
    await refuseRunning(name, tmpDir);
    const tmux = await startTmux({ name, tmpDir });
    undo.push(() => tmux.kill());
    const project: TempDir = await tempDir('collie-demo-project-');
    undo.push(() => project.remove());
    // Each Claude pane works in its own git repository, so the phone labels them
    // `<repo>#<branch>` as it would a user's real checkouts.
    const repo = async (dir: string, branch: string) => {
      const path = join(project.path, dir);
      await mkdir(path);
      await run('git', ['init', '-q', '-b', branch, path]);
      return path;
    };
    const shop = await repo('shop', 'migration');
    const web = await repo('shop-web', 'cleanup');
    const site = await repo('site', 'main');
    const notes = join(shop, 'NOTES.md');
    await writeFile(notes, '# Migration plan\n\n1. Move the parser.\n2. Move the renderer.\n3. Delete the old tree.\n');
    await mkdir(join(web, 'build'));
    await writeFile(join(web, 'build', 'app.js'), '// built\n');

    const roles = [
      { role: 'working', cwd: shop, fallback: endlessWork(notes, opts.stepMs ?? 45_000), prompt: 'Work through the migration plan in NOTES.md.' },
      { role: 'permission', cwd: web, fallback: permissionEveryPrompt('rm -rf ./build'), prompt: 'Clean the build folder.' },
      { role: 'idle', cwd: site, fallback: echoReply(), prompt: 'Say hello to the phone.' },
    ] as const;
    const apis = await Promise.all(roles.map((r) => startMessagesApi({ fallback: r.fallback })));
    for (const api of apis) undo.push(() => api.close());

    // The first pane makes session `demo`; the others join it as windows, side by side in time.
    const start = async (api: MessagesApi, i: number) => {
      const claude = await startClaude(tmux, api, { cwd: roles[i]!.cwd, session: 'demo', width: 160, height: 45 });
      undo.push(() => claude.kill());
      return claude;
    };
    const first = await start(apis[0]!, 0);
    // The other agents start meanwhile (Gemini CLI takes seconds), in windows of the same session.
    const othersStarting = startOtherAgents(tmux, { api: await repo('shop-api', 'main'), docs: await repo('docs', 'main') }, undo, log);
    othersStarting.catch(() => undefined); // awaited below; a Claude failure first must not leave it unhandled
    const claudes: ClaudePane[] = [first, ...(await Promise.all(apis.slice(1).map((api, i) => start(api, i + 1))))];
    const others = await othersStarting;
    const shell = await tmux.newSession('demo-shell', { cwd: project.path, width: 160, height: 45 });

    await Promise.all(claudes.map((c, i) => c.submit(roles[i]!.prompt)));
    const settled = [claudeWorking, claudePermissionDialog, (s: string) => s.includes('Hello! You said') && claudeInputReady(s)];
    await Promise.all(claudes.map((c, i) => c.waitForScreen(settled[i]!, 20_000)));

    if (opts.configDir) {
      // The idle Claude pane's start (its API echoes), and each other agent's.
      const agents = [{ agent: 'claude', argv: claudes[2]!.argv, cwd: claudes[2]!.cwd }, ...others.map((o) => ({ agent: o.role === 'codex-approval' ? 'codex' : 'gemini', argv: o.argv, cwd: o.cwd }))];
      undo.push(await saveDemoLaunchers(opts.configDir, join(project.path, '.launchers'), agents));
    }

    const target = async (paneId: string) => (await tmux.tmux('display-message', '-p', '-t', paneId, '#{session_name}:#{window_index}')).trim();
    const panes: DemoPane[] = [
      ...(await Promise.all(claudes.map(async (c, i) => ({ paneId: c.paneId, target: await target(c.paneId), role: roles[i]!.role, api: apis[i] })))),
      ...(await Promise.all(others.map(async (o) => ({ paneId: o.paneId, target: await target(o.paneId), role: o.role })))),
      { paneId: shell, target: await target(shell), role: 'shell' as const },
    ];
    log(`collie demo: tmux server "${name}" (socket ${tmux.socketPath})`);
    for (const p of panes) log(`  ${p.target.padEnd(13)} ${p.paneId.padEnd(4)} ${roleText(p.role)}`);
    log(`  look:  tmux -L ${name} attach -t demo`);
    return { tmux, panes, stop, [Symbol.asyncDispose]: stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * `collie demo`: starts the demo, stays up until SIGINT or SIGTERM (or `signal`), then tears
 * everything down.
 *
 * @example
 * await runDemo({ log: (line) => console.log(line) });
 */
export async function runDemo(opts: RunDemoOptions = {}): Promise<void> {
  const log = opts.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const demo = await startDemo({ ...opts, log });
  try {
    await opts.ready?.(demo);
  } catch (err) {
    await demo.stop();
    throw err;
  }
  log('Ctrl-C to stop.');
  await new Promise<void>((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      opts.signal?.removeEventListener('abort', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    if (opts.signal?.aborted) done();
    else opts.signal?.addEventListener('abort', done, { once: true });
  });
  log('collie demo: stopping…');
  await demo.stop();
  log('collie demo: stopped.');
}

function roleText(role: DemoPane['role']): string {
  switch (role) {
    case 'working':
      return 'claude, on a turn that never ends';
    case 'permission':
      return 'claude, asking permission to run a Bash command';
    case 'idle':
      return 'claude, idle after a reply';
    case 'shell':
      return 'a plain shell';
    case 'codex-approval':
      return 'codex, asking to run a command outside its sandbox';
    case 'gemini-idle':
      return 'gemini, idle after a reply';
  }
}

/**
 * Refuses to start over a live server of the same name: it may be another demo, and killing
 * it would take its panes from whoever watches them.
 */
async function refuseRunning(name: string, tmpDir: string): Promise<void> {
  const sessions = await listSessions(name, tmpDir);
  if (sessions.length > 0) {
    throw new Error(
      `collie demo: tmux server "${name}" is already running (sessions: ${sessions.join(', ')}); ` +
        `stop that demo, or end it with: tmux -L ${name} kill-server`,
    );
  }
}
