import { execFile } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { SessionChat, SessionResumed, SessionsPage } from '@collie/protocol';
import { claudeOffline, plainReply, startClaude, startMessagesApi, startTmux, Started, tempDir, type ClaudePane, type MessagesApi, type TempDir, type TmuxServer } from '@collie/testkit';
import { type TestBridge, until } from './harness';

/** A git repository in a temp folder (its real path), for a session's folder. */
export async function repoFolder(prefix: string): Promise<{ path: string } & AsyncDisposable> {
  const dir = await tempDir(prefix);
  await promisify(execFile)('git', ['init', '-q', '-b', 'main', dir.path]);
  return Object.assign(dir, { path: await realpath(dir.path) });
}

async function call<T>(bridge: TestBridge, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${bridge.url}${path}`, { ...init, headers: { ...bridge.device.headers, ...(init.body ? { 'content-type': 'application/json' } : {}) } });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export const listSessions = (bridge: TestBridge, query = '') => call<SessionsPage>(bridge, `/api/sessions${query}`);
export const readSession = (bridge: TestBridge, agent: string, id: string) => call<SessionChat>(bridge, `/api/sessions/${agent}/${id}`);
export const resumeSession = (bridge: TestBridge, agent: string, id: string, launcher: string) =>
  call<SessionResumed>(bridge, `/api/sessions/${agent}/${id}/resume`, { method: 'POST', body: JSON.stringify({ launcher }) });

/** Items of a chat as `<kind> <text>`, for comparing. */
export const itemsOf = (chat: SessionChat) => chat.items.map((i) => `${i.kind} ${'text' in i ? i.text : ''}`);

/** What a resumed session's check needs of the test's tmux server and scripted API. */
export interface ResumeRig {
  tmux: TmuxServer;
  api: { readonly requests: readonly { body: unknown }[] };
  /** Scripts the scripted API's next answer (each API has its own reply shape). */
  reply: (text: string) => void;
}

/**
 * Types `line` into the resumed pane once it is idle and `loaded`, waits for `answer` on its screen and
 * gives the body of the request to the scripted API that carried `line`, for checking it holds
 * the earlier turns.
 */
export async function askResumed(bridge: TestBridge, rig: ResumeRig, resumed: SessionResumed, harness: string, line: string, answer: string, loaded: (screen: string) => boolean = (s) => s.includes('heron')): Promise<string> {
  await until(bridge.hub, 'the resumed pane idle', (h) => h.panes.get(resumed.pane)?.harness === harness && h.panes.get(resumed.pane)?.state === 'idle', 120_000);
  const before = rig.api.requests.length;
  rig.reply(answer);
  const tmuxId = resumed.pane.slice(resumed.pane.lastIndexOf(':') + 1);
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // The agent has drawn the resumed conversation (each test's earlier turn names the heron), or
  // what `loaded` says it draws once it takes input: before that a resuming TUI may still be
  // loading it and drop keys typed at it.
  await rig.tmux.waitForScreen(tmuxId, loaded, 60_000);
  await rig.tmux.typeText(tmuxId, line);
  await rig.tmux.waitForScreen(tmuxId, new RegExp(escape(line)), 30_000);
  await rig.tmux.sendKeys(tmuxId, 'Enter');
  await rig.tmux.waitForScreen(tmuxId, new RegExp(escape(answer)), 90_000);
  return rig.api.requests.slice(before).map((r) => JSON.stringify(r.body)).find((body) => body.includes(line)) ?? '';
}

/** An agent pane's own command as a launcher: its variables kept, its `-u NAME` unsets left out (a launcher holds at most 40 words). */
export const launcherOf = (argv: readonly string[]) => argv.filter((w, i) => w !== '-u' && argv[i - 1] !== '-u');

/** One Claude Code config dir trusted in two folders and the `claude offline` launcher ({@link claudeOffline}). */
export const claudeForTwoFolders = (cfg: string, configDir: string, api: MessagesApi, a: string, b: string) => claudeOffline(cfg, configDir, api, [a, b]);

/** Two trusted repo folders of Claude Code sessions: tmux (with the user's own session `main`), the scripted API, state, config and Claude's env. */
export interface ClaudeSessionsDesk extends AsyncDisposable {
  readonly tmux: TmuxServer;
  readonly api: MessagesApi;
  readonly state: TempDir;
  /** Claude Code's config dir (its projects folder is the sessions root). */
  readonly cfg: TempDir;
  /** The bridge's config dir, with the `claude offline` launcher. */
  readonly config: TempDir;
  readonly a: { path: string };
  readonly b: { path: string };
  /** The env for Claude panes the test starts. */
  readonly env: Record<string, string>;
}

/** Starts a {@link ClaudeSessionsDesk} (folders named `<prefix>a-`, `<prefix>b-`), stopped last first. */
export async function claudeSessionsDesk(prefix: string): Promise<ClaudeSessionsDesk> {
  const started = new Started();
  return started.guard(async () => {
    const tmux = started.use(await startTmux());
    // The user's own session, where a resumed session's window opens.
    await tmux.newSession('main');
    const api = started.use(await startMessagesApi());
    const state = started.use(await tempDir('collie-state'));
    const cfg = started.use(await tempDir('collie-sessions-claude-'));
    const config = started.use(await tempDir('collie-config'));
    const a = started.use(await repoFolder(`${prefix}a-`));
    const b = started.use(await repoFolder(`${prefix}b-`));
    const env = await claudeForTwoFolders(cfg.path, config.path, api, a.path, b.path);
    return { tmux, api, state, cfg, config, a, b, env, [Symbol.asyncDispose]: () => started[Symbol.asyncDispose]() };
  });
}

/**
 * Starts a Claude Code pane in each folder (all of them first), then tells each `remember the word
 * <word>` and waits for its `Noted: <word>.`: sessions with a turn each, for a test to stop and
 * resume. The panes are the caller's to kill; a start or a turn that fails kills those started.
 */
export async function claudesTold<const T extends readonly (readonly [folder: string, word: string])[]>(tmux: TmuxServer, api: MessagesApi, env: Record<string, string>, told: T): Promise<{ -readonly [K in keyof T]: ClaudePane }> {
  const panes: ClaudePane[] = [];
  try {
    for (const [cwd] of told) panes.push(await startClaude(tmux, api, { cwd, env }));
    for (const [i, [, word]] of told.entries()) {
      api.script(plainReply(`Noted: ${word}.`));
      await panes[i]!.submit(`remember the word ${word}`);
      await panes[i]!.waitForScreen(/Noted: /, 60_000);
    }
    return panes as { -readonly [K in keyof T]: ClaudePane };
  } catch (error) {
    for (const p of panes) await p.kill().catch(() => undefined);
    throw error;
  }
}
