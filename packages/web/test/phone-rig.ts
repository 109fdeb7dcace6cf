import { join } from 'node:path';
import { startBridge, type Bridge, type BridgeOptions } from '@collie/bridge';
import {
  artifactPath,
  launchChromium,
  phoneContext,
  startClaude,
  startMessagesApi,
  startTmux,
  tempDir,
  testBridgeOptions,
  testDevice,
  Started,
  type ClaudePane,
  type MessagesApi,
  type MessagesApiOptions,
  type StartClaudeOptions,
  type TempDir,
  type TmuxServer,
} from '@collie/testkit';
import type { Pane } from '@collie/protocol';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { axeProblems, buildWeb, untilPane } from './e2e-setup';

/**
 * The phone-test rig: the web app built from its sources, a real bridge serving it, a paired
 * phone-sized Chromium page, the panes a test needs, and screenshots kept under
 * artifacts/web/. Each part disposes itself (`await using`), last started first stopped.
 */

export { Started };

/** A temp dir with the web app built into `dist` below it. */
export interface WebWork extends TempDir {
  readonly dist: string;
}

/** A fresh temp dir (`prefix`) with the web app built from its current sources into `<dir>/dist`. */
export async function webWork(prefix: string): Promise<WebWork> {
  const work = await tempDir(prefix);
  const dist = join(work.path, 'dist');
  try {
    await buildWeb(dist);
  } catch (error) {
    await work.remove();
    throw error;
  }
  return Object.assign(work, { dist });
}

/** Saves a screenshot of `page` as artifacts/web/<name>.png. */
/** A picture's natural width once it has loaded (an <img> is in the page before its bytes are): the load waited for, an error thrown. */
export const loadedWidth = (img: Locator): Promise<number> =>
  img.evaluate(
    (el: HTMLImageElement) =>
      new Promise<number>((resolve, reject) => {
        const done = () => (el.naturalWidth > 0 ? resolve(el.naturalWidth) : reject(new Error(`the picture ${el.src} did not load`)));
        if (el.complete) return done();
        el.addEventListener('load', done, { once: true });
        el.addEventListener('error', done, { once: true });
      }),
  );

export const shot = (page: Page, name: string, full = false) => page.screenshot({ path: artifactPath(`web/${name}.png`), ...(full ? { fullPage: true } : {}) });

/** axe-core finds nothing serious in light and in dark; a full-page screenshot of each (`<name>-<scheme>.png`). */
export async function shotBoth(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeProblems(page), `${name} ${scheme}`).toEqual([]);
    await page.screenshot({ path: artifactPath(`web/${name}-${scheme}.png`), fullPage: true });
  }
}

/** How the phone's page is set up before the test drives it. */
export interface PhoneOptions {
  /** The page's default timeout for locators and waits (ms). Default 20 s. */
  timeout?: number;
  /** The colour scheme the page is shown in; the browser's own when not given. */
  scheme?: 'light' | 'dark';
  /** Console errors count as problems too (all, or all but those `ignore` matches). */
  console?: boolean;
  /** With `console`: the console errors that are no problem (an expected 409 of a refused call). */
  ignore?: RegExp;
  /** The phone's time zone (`timezoneId`). */
  timezoneId?: string;
}

/** A paired phone on a bridge: Chromium at 390×844 with the device cookie, one page open. */
export interface Phone extends AsyncDisposable {
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  /** The page's uncaught errors, and its console errors when asked for. */
  readonly problems: string[];
  /** Saves a screenshot of the page as artifacts/web/<name>.png. */
  shot(name: string, full?: boolean): Promise<Buffer>;
  /** Goes to `path` (`/`, `/#/crew`) and waits for the live connection. */
  open(path: string): Promise<void>;
  /** Goes to the pane page of `id` and waits for the live connection. */
  openPane(id: string): Promise<void>;
}

/** The device a phone presents: a state dir to pair one in, or a device already paired. */
export type PhoneDevice = string | { cookie(url: string): { name: string; value: string; url: string } };

/** A phone paired with `bridge` (the device of `device`, or a new one in that state dir). */
export async function openPhone(bridge: { url: string }, device: PhoneDevice, options: PhoneOptions = {}): Promise<Phone> {
  const started = new Started();
  return started.guard(async () => {
    const browser = started.use(await launchChromium());
    const context = started.use(await phoneContext(browser, { baseURL: bridge.url, ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}) }));
    const paired = typeof device === 'string' ? await testDevice(device) : device;
    await context.addCookies([paired.cookie(bridge.url)]);
    const page = await context.newPage();
    page.setDefaultTimeout(options.timeout ?? 20_000);
    if (options.scheme) await page.emulateMedia({ colorScheme: options.scheme });
    const problems: string[] = [];
    if (options.console) page.on('console', (m) => void (m.type() === 'error' && !options.ignore?.test(m.text()) && problems.push(m.text())));
    page.on('pageerror', (error) => void problems.push(error.message));
    const open = async (path: string) => {
      await page.goto(path);
      await page.locator('.conn-live').waitFor();
    };
    return {
      browser,
      context,
      page,
      problems,
      shot: (name: string, full?: boolean) => shot(page, name, full),
      open,
      openPane: (id: string) => open(`/#/pane/${encodeURIComponent(id)}`),
      [Symbol.asyncDispose]: () => started[Symbol.asyncDispose](),
    };
  });
}

/** The bridge options a phone test's bridge takes beyond the tmux and state dirs. */
export type RigBridgeOptions = Partial<BridgeOptions>;

/** A bridge that serves `work`'s web app and sees the panes of `tmux`, its state in `stateDir`. */
export function webBridge(work: { dist: string }, tmux: { tmpDir: string }, stateDir: string, extra: RigBridgeOptions = {}): Promise<Bridge> {
  return startBridge(testBridgeOptions(tmux.tmpDir, stateDir, { webDir: work.dist, ...extra }));
}

/** What a Claude phone test starts: the real Claude Code TUI on a scripted API, a bridge, a phone. */
export interface ClaudePhoneOptions {
  api?: MessagesApiOptions;
  /** The TUI's options, or a function of the work dir that makes them (a repository to work in). */
  claude?: StartClaudeOptions | ((work: WebWork) => Promise<StartClaudeOptions>);
  /** Runs once the pane is up, before the bridge starts (a conversation, a stored receipt). */
  before?: (desk: ClaudeDesk) => Promise<void>;
  /** More bridge options, or a function of the desk that makes them (a config dir in the work dir). */
  bridge?: RigBridgeOptions | ((desk: ClaudeDesk) => RigBridgeOptions);
  /** What the bridge's model must show of the pane before the phone opens. Default: idle, no dialog. */
  ready?: { what: string; check: (pane: Pane, id: string) => boolean };
  /** How long to wait for `ready` (ms). Default 60 s. */
  readyMs?: number;
  phone?: PhoneOptions;
}

/** A Claude pane before its bridge: the built web app, tmux, the scripted API, the TUI, a state dir. */
export interface ClaudeDesk {
  readonly work: WebWork;
  readonly tmux: TmuxServer;
  readonly api: MessagesApi;
  readonly claude: ClaudePane;
  readonly state: TempDir;
  /** The pane's id in the bridge's model (`<server>:<pane>`). */
  readonly id: string;
}

/** A Claude phone test, set up: the desk, its bridge and a phone paired with it. */
export interface ClaudePhone extends ClaudeDesk, AsyncDisposable {
  readonly bridge: Bridge;
  readonly phone: Phone;
  readonly page: Page;
  /** Resolves once the pane is idle with no dialog (`ms`, default 60 s). */
  idle(ms?: number): Promise<unknown>;
}

/** Ready once the bridge's model shows the pane as Claude's (its transcript found or not). */
export const claudeReady = { what: 'the claude pane', check: (p: Pane, id: string) => p.id === id && p.harness === 'claude' };

/** Whether `pane` is the pane `id`, idle or done, with no dialog open. */
export const idleIn = (id: string) => (p: Pane) => p.id === id && (p.state === 'idle' || p.state === 'done') && p.dialog === null;

/**
 * The real Claude Code TUI (offline, scripted Messages API) in a tmux pane, a bridge serving the
 * app built from its sources, and a paired phone page (not yet navigated), once the bridge's
 * model shows the pane ready.
 */
export async function claudePhone(prefix: string, options: ClaudePhoneOptions = {}): Promise<ClaudePhone> {
  const started = new Started();
  return started.guard(async () => {
    const work = started.use(await webWork(prefix));
    const tmux = started.use(await startTmux());
    const api = started.use(await startMessagesApi(options.api));
    const claudeOptions = typeof options.claude === 'function' ? await options.claude(work) : options.claude;
    const claude = started.use(await startClaude(tmux, api, claudeOptions));
    const state = started.use(await tempDir('collie-state-'));
    const id = `${tmux.name}:${claude.paneId}`;
    const desk: ClaudeDesk = { work, tmux, api, claude, state, id };
    await options.before?.(desk);
    const bridge = started.use(await webBridge(work, tmux, state.path, typeof options.bridge === 'function' ? options.bridge(desk) : options.bridge));
    const ready = options.ready ?? { what: 'the pane idle', check: (p: Pane) => idleIn(id)(p) };
    await untilPane(bridge.hub, ready.what, (p) => ready.check(p, id), options.readyMs ?? 60_000);
    const phone = started.use(await openPhone(bridge, state.path, options.phone));
    const idle = (ms = 60_000) => untilPane(bridge.hub, 'the pane idle', idleIn(id), ms);
    return { ...desk, bridge, phone, page: phone.page, idle, [Symbol.asyncDispose]: () => started[Symbol.asyncDispose]() };
  });
}

/** A desk before its bridge: the built web app, its `config` dir path, tmux with a shell pane `home`. */
export interface Desk {
  readonly work: WebWork;
  /** `<work>/config`: the bridge's config dir (launchers.json, quick-replies.json). */
  readonly config: string;
  readonly tmux: TmuxServer;
  readonly state: TempDir;
}

/** What a desk phone test starts beyond the desk. */
export interface DeskPhoneOptions {
  /** Runs before tmux starts (folders, repositories, a launcher's config). */
  prepare?: (work: WebWork, config: string) => Promise<void>;
  /** Runs once the `home` pane is up, before the bridge starts (agents, conversations). */
  before?: (desk: Desk) => Promise<void>;
  /** More environment for the bridge (the panes it starts see TMUX_TMPDIR of the test's tmux); a function is read after `prepare`. */
  env?: Record<string, string> | (() => Record<string, string>);
  /** More bridge options; a function is read after `before`. */
  bridge?: RigBridgeOptions | (() => RigBridgeOptions);
  phone?: PhoneOptions;
}

/** A desk phone test, set up: the desk, its bridge and a phone paired with it. */
export interface DeskPhone extends Desk, AsyncDisposable {
  readonly bridge: Bridge;
  readonly phone: Phone;
  readonly page: Page;
}

/**
 * A tmux server with one shell pane (`home`: `cat` in the work dir, 100×40), a bridge serving the
 * app built from its sources that starts its new panes in that server, with its config dir at
 * `<work>/config`, and a paired phone page (not yet navigated) once the bridge sees the pane.
 */
export async function deskPhone(prefix: string, options: DeskPhoneOptions = {}): Promise<DeskPhone> {
  const started = new Started();
  return started.guard(async () => {
    const work = started.use(await webWork(prefix));
    const config = join(work.path, 'config');
    await options.prepare?.(work, config);
    const tmux = started.use(await startTmux());
    await tmux.newSession('home', { cmd: 'cat', cwd: work.path, width: 100, height: 40 });
    const state = started.use(await tempDir('collie-state-'));
    const desk: Desk = { work, config, tmux, state };
    await options.before?.(desk);
    const env = { ...process.env, TMUX_TMPDIR: tmux.tmpDir, ...(typeof options.env === 'function' ? options.env() : options.env) };
    const more = typeof options.bridge === 'function' ? options.bridge() : options.bridge;
    const bridge = started.use(await webBridge(work, tmux, state.path, { configDir: config, env, ...more }));
    await untilPane(bridge.hub, 'the first pane', () => true, 30_000);
    const phone = started.use(await openPhone(bridge, state.path, options.phone));
    return { ...desk, bridge, phone, page: phone.page, [Symbol.asyncDispose]: () => started[Symbol.asyncDispose]() };
  });
}
