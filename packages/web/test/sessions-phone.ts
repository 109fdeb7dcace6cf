import { writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { startBridge } from '@collie/bridge';
import type { Harness } from '@collie/protocol';
import { artifactPath, phoneContext, tempDir, testBridgeOptions, testDevice, type TmuxServer } from '@collie/testkit';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { untilPane } from './e2e-setup';

/** Two past sessions of one agent, made by the real program in two folders, their panes closed. */
export interface PastSessions {
  agent: 'codex' | 'gemini' | 'opencode' | 'pi';
  harness: Harness;
  /** The agent's store, as the bridge's session roots take it. */
  root: string;
  /** The folder of the session to resume (its first message names the heron), then the other's. */
  heron: string;
  other: string;
  /** The list's titles, newest (the other's) first. */
  titles: readonly [string, string];
  /** The model's answer in the heron session, shown when it is read. */
  answer: string;
  /** The launcher that runs the agent as the sessions were made (its resume words are added). */
  launcher: readonly string[];
  api: { readonly requests: readonly { body: unknown }[] };
  /** Scripts the scripted API's next answer. */
  reply: (text: string) => void;
  tmux: TmuxServer;
  /**
   * The resumed agent's screen once it takes input: by default the earlier answer drawn (it
   * loaded the session). A person types once the pane shows the conversation.
   */
  loaded?: (screen: string) => boolean;
}

const NAMES = { codex: 'Codex', gemini: 'Gemini CLI', opencode: 'OpenCode', pi: 'pi' } as const;
export const LINE = 'say the word again';

/**
 * Issue 30 on a phone (Chromium at 390×844): the bridge lists the two past sessions from the
 * agent's own store (newest first, agent and `<repo>#<branch>` under each), a search finds the
 * heron one, it is read in the Chat's view and resumed in a new pane; a message sent at once
 * from the pane page is typed once (its receipt says so) and the agent's next request carries
 * the earlier turns: that request's body is returned. The message is sent once the pane reads
 * idle and its screen shows the resumed conversation (`loaded`), as a person sends it. Windows
 * keep their pane when the agent ends (`remain-on-exit`), so a failure shows why.
 */
export async function resumeFromPhone(browser: Browser, dist: string, s: PastSessions): Promise<string> {
  await using state = await tempDir('collie-state-');
  await using config = await tempDir('collie-config-');
  await writeFile(join(config.path, 'launchers.json'), JSON.stringify({ launchers: [{ name: `${s.agent} offline`, command: s.launcher }] }));
  await s.tmux.newSession('home', { cmd: 'cat', cwd: state.path, width: 100, height: 40 });
  await s.tmux.tmux('set-option', '-wg', 'remain-on-exit', 'on');
  const none: string[] = [];
  await using bridge = await startBridge({
    ...testBridgeOptions(s.tmux.tmpDir, state.path, { webDir: dist, configDir: config.path, env: { ...process.env, TMUX_TMPDIR: s.tmux.tmpDir } }),
    sessionRoots: { claude: none, codex: none, gemini: none, opencode: none, pi: none, [s.agent]: [s.root] },
  });
  await untilPane(bridge.hub, 'the home pane', () => true, 30_000);

  await using context = Object.assign(await phoneContext(browser, { baseURL: bridge.url }), { [Symbol.asyncDispose]() { return context.close(); } });
  await context.addCookies([(await testDevice(state.path)).cookie(bridge.url)]);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const problems: string[] = [];
  page.on('pageerror', (error) => void problems.push(error.message));
  const shot = (name: string) => page.screenshot({ path: artifactPath(`web/sessions-${s.agent}-${name}.png`) });

  await page.goto('/');
  await page.locator('.conn-live').waitFor();
  await page.getByRole('link', { name: 'Sessions', exact: true }).click();
  const rows = page.getByRole('list', { name: 'Sessions' }).locator('.session-row');
  await expect.poll(() => rows.locator('.new-choice-name').allTextContents(), { timeout: 30_000 }).toEqual([...s.titles]);
  await rows.first().locator('.new-choice-meta', { hasText: new RegExp(`^${NAMES[s.agent]} · ${basename(s.other)}#main · `) }).waitFor();
  await rows.nth(1).locator('.new-choice-meta', { hasText: new RegExp(`^${NAMES[s.agent]} · ${basename(s.heron)}#main · `) }).waitFor();
  await page.getByRole('searchbox', { name: 'Search sessions' }).fill('heron');
  await expect.poll(() => rows.locator('.new-choice-name').allTextContents()).toEqual([s.titles[1]]);

  await rows.first().locator('a.new-choice-main').click();
  await page.getByRole('heading', { name: s.titles[1] }).waitFor();
  await page.getByText('remember the word heron').first().waitFor();
  await page.getByText(s.answer).first().waitFor();
  await shot('read');
  await page.getByRole('button', { name: 'Resume in a new pane' }).click();
  await expect.poll(() => page.evaluate(() => window.location.hash), { timeout: 30_000 }).toMatch(/^#\/pane\//);
  const id = decodeURIComponent((await page.evaluate(() => window.location.hash)).replace('#/pane/', ''));
  const tmuxId = id.slice(id.indexOf(':') + 1);
  const screen = () => s.tmux.capture(tmuxId).catch((e: unknown) => `(no screen: ${String(e)})`);
  const loaded = s.loaded ?? ((text: string) => text.includes(s.answer));
  await s.tmux.waitForScreen(tmuxId, loaded, 90_000);
  await untilPane(bridge.hub, `the resumed ${s.harness} pane idle in its folder`, (p) => p.id === id && p.cwd === s.heron && p.harness === s.harness && p.state === 'idle', 90_000).catch(async (e: unknown) => {
    throw new Error(`${String(e)}\n${await screen()}`);
  });

  const before = s.api.requests.length;
  s.reply('The word was heron.');
  await page.getByLabel('Text to send to the pane').fill(LINE);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const asked = () => s.api.requests.slice(before).map((r) => JSON.stringify(r.body)).find((b) => b.includes(LINE));
  await expect.poll(asked, { timeout: 90_000 }).toBeDefined().catch(async (e: unknown) => {
    throw new Error(`${String(e)}\nthe resumed pane:\n${await screen()}`);
  });
  await page.locator('.send-outcome', { hasText: /^typed into the pane$/ }).first().waitFor();
  expect(await page.locator('.send-outcome').allTextContents()).toEqual(['typed into the pane']);
  await shot('resumed-sent');
  expect(problems).toEqual([]);
  await s.tmux.killPane(tmuxId);
  return asked() ?? '';
}
