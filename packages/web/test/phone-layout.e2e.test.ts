/**
 * Every page of the app in Chromium at 390×844, 320×640, 1280×800 and at 200 % text, light and
 * dark, against one real bridge (a real Claude Code pane with a conversation longer than the
 * screen, a shell, a durable agent and the demo's Nerve): the newest chat item lies wholly above
 * the composer, no page scrolls sideways, words break only between words, the pane's header and
 * view switch take at most a quarter of the screen, and axe finds nothing.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startBridge } from '@collie/bridge';
import { DurableAgent, serve } from '@collie/durable-sdk';
import { conversationKey } from '@collie/protocol';
import { artifactPath, plainReply, startClaude, startMessagesApi, startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startDemoNerve } from '../../testkit/src/demo-nerve';
import { type ChatPlace, DURABLE_CHAT, PANE_CHAT, newestUnderDock } from './chat-foot';
import { sock, untilDurable } from './durable-rig';
import { buildWeb, gitDir, untilPane } from './e2e-setup';
import { axeViolations, dockOutside, layoutProblems } from './layout-check';
import { openPhone } from './phone-rig';

const SIZES = [
  { name: '390', width: 390, height: 844, text: '100%' },
  { name: '320', width: 320, height: 640, text: '100%' },
  { name: '1280', width: 1280, height: 800, text: '100%' },
  { name: '390-text200', width: 390, height: 844, text: '200%' },
] as const;

/** One page of the app: where it is, what says it has drawn, and what it holds. */
interface PageCase {
  readonly name: string;
  readonly hash: string;
  readonly ready: string;
  /** The pane page's view, remembered per pane before the visit. */
  readonly view?: { readonly pane: string; readonly name: 'chat' | 'terminal' };
  readonly chat?: ChatPlace;
  /** A pane page: its header and view switch are measured. */
  readonly paneHeader?: boolean;
  /** The page's composer dock: its whole box and every button in it lie within the screen. */
  readonly dock?: string;
}

// Each reply has a heading (axe checks where it stands in the page's outline).
const reply = (n: number) =>
  [`Answer ${n}: I read the parser and the tests around it.`, '', `## What I found in answer ${n}`, '', ...Array.from({ length: 6 }, (_, i) => `- point ${i + 1} of answer ${n}, in plain words that wrap on a phone`)].join('\n');

describe('every page at every size (issue 27)', () => {
  it('keeps the newest chat item above the composer, no sideways scroll, whole words, a short header, and axe clean', async () => {
    await using work = await tempDir('collie-layout-');
    const dist = join(work.path, 'dist');
    const config = join(work.path, 'config');
    const stateDir = join(work.path, 'state');
    await mkdir(config, { recursive: true });
    const nerveDemo = startDemoNerve(join(work.path, 'demo'), undefined, join(stateDir, 'nerve'));
    await buildWeb(dist);
    const repo = await gitDir(work.path, 'shop-api', 'fix-login');
    await writeFile(join(repo, 'parser.ts'), 'export const parse = (s: string) => s.trim();\n');
    await using tmux = await startTmux();
    await using api = await startMessagesApi({ fallback: plainReply('Fine.') });
    await using claude = await startClaude(tmux, api, { cwd: repo });
    for (let n = 1; n <= 3; n++) {
      api.script(plainReply(reply(n)));
      await claude.submit(`question ${n} about the parser`);
      await claude.waitForScreen((s) => s.includes(`point 6 of answer ${n}`), 30_000);
    }
    const shellPane = await tmux.newSession('sh', { cwd: repo });

    const agent = new DurableAgent({ runtime: 'notes', onStop: () => undefined, onMessage: (c) => void c.reply('Noted.') });
    const talk = agent.open({ id: 'talk', title: 'Plan the release', workspace: '~/release' });
    talk.markdown('## The plan\n\nShip on Friday.\n\n### Before that\n\n- tag the release');
    for (let i = 0; i < 12; i++) talk.reply(`Earlier answer ${i}: enough words to fill a line or two of the thread on a phone.`);
    const listening = await serve(agent, { socket: sock(work.path, 'notes') });
    const nerve = await nerveDemo;
    await writeFile(join(config, 'sources.json'), JSON.stringify({ agents: [{ name: 'notes', socket: listening.address }, { name: 'nerve', socket: nerve.nerve.durable }] }));

    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, stateDir, { webDir: dist, configDir: config }));
    try {
      const claudeId = `${tmux.name}:${claude.paneId}`;
      const shellId = `${tmux.name}:${shellPane}`;
      await untilPane(bridge.hub, 'the claude pane', (p) => p.id === claudeId && p.harness === 'claude', 30_000);
      await untilPane(bridge.hub, 'the shell', (p) => p.id === shellId);
      await untilDurable(bridge.hub, 'the conversation', (d) => d.conversations.has(conversationKey('notes', 'talk')));
      await untilDurable(bridge.hub, 'the nerve session', (d) => d.conversations.has(conversationKey('nerve', nerve.sessionId)));

      const pane = encodeURIComponent(claudeId);
      const PAGES: readonly PageCase[] = [
        { name: 'dashboard', hash: '#/', ready: '.row >> nth=1' },
        { name: 'pane-chat', hash: `#/pane/${pane}`, ready: '.chat-markdown >> text=point 6 of answer 3', view: { pane: claudeId, name: 'chat' }, chat: PANE_CHAT, paneHeader: true, dock: '.dock' },
        { name: 'changes', hash: `#/pane/${pane}/changes`, ready: 'h1', dock: '.dock' },
        { name: 'pane-terminal', hash: `#/pane/${pane}`, ready: '.term', view: { pane: claudeId, name: 'terminal' }, paneHeader: true, dock: '.dock' },
        { name: 'files', hash: `#/pane/${pane}/files`, ready: 'text=parser.ts' },
        { name: 'shell', hash: `#/pane/${encodeURIComponent(shellId)}`, ready: '.term', paneHeader: true, dock: '.dock' },
        { name: 'new', hash: '#/new', ready: 'h1' },
        { name: 'devices', hash: '#/devices', ready: 'h1' },
        { name: 'settings', hash: '#/settings', ready: 'h1' },
        { name: 'crew', hash: '#/crew', ready: 'h1' },
        { name: 'durable-home', hash: '#/durable/notes', ready: 'text=Plan the release' },
        { name: 'durable-chat', hash: '#/durable/notes/talk', ready: '.chat-reply >> text=Earlier answer 11', chat: DURABLE_CHAT, dock: '.durable-dock' },
        { name: 'nerve', hash: `#/durable/nerve/${encodeURIComponent(nerve.sessionId)}`, ready: '.durable-dock', chat: DURABLE_CHAT, dock: '.durable-dock' },
      ];

      await using phone = await openPhone(bridge, stateDir, { timeout: 30_000 });
      const { page, problems: errors } = phone;
      // A send from the phone: its receipt stands on its own bubble in the Chat, no list between the Chat and the composer.
      await page.goto(`/#/pane/${pane}`);
      await page.locator('.chat-markdown >> text=point 6 of answer 3').waitFor();
      api.script(plainReply('Answer 4: done.'));
      await page.getByRole('textbox', { name: 'Text to send to the pane' }).fill('question 4 from the phone');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      const sent = page.locator('.pane-chat-scroll .chat-sent', { hasText: 'question 4 from the phone' });
      await sent.locator('.send-outcome', { hasText: 'typed into the pane' }).waitFor();
      await page.locator('.pane-chat-scroll .chat-item', { hasText: 'Answer 4: done.' }).waitFor();
      expect(await page.locator('.sends').count(), 'no Recent sends list on a pane with a Chat').toBe(0);
      expect(await page.locator('.pane-chat-scroll .send').count(), 'the receipt once, on its bubble').toBe(1);
      await page.screenshot({ path: artifactPath('web/layout-receipt-on-bubble.png') });
      const failures: string[] = [];
      for (const size of SIZES) {
        await page.setViewportSize({ width: size.width, height: size.height });
        for (const at of PAGES) {
          await visit(page, at, size.text);
          const where = `${at.name} at ${size.name}`;
          if (at.chat) {
            const chat = at.chat;
            await expect.poll(async () => (await newestUnderDock(page, chat)).under, { message: `${where}: newest chat item above the composer` }).toBeLessThanOrEqual(0);
            expect((await newestUnderDock(page, chat)).nested, `${where}: no scroller inside the chat`).toBe(0);
          }
          if (at.paneHeader) {
            const header = await paneHeaderHeight(page);
            if (header > size.height / 4) failures.push(`${where}: header and view switch ${header} px > ${size.height / 4}`);
          }
          failures.push(...(await layoutProblems(page)).map((p) => `${where}: ${p}`));
          if (at.dock) failures.push(...(await dockOutside(page, at.dock)).map((p) => `${where}, as it opens: ${p}`));
          for (const scheme of ['light', 'dark'] as const) {
            await page.emulateMedia({ colorScheme: scheme });
            failures.push(...(await axeViolations(page)).map((p) => `${where} ${scheme}: ${p}`));
            if (size.name === '390' || size.name === '390-text200') await page.screenshot({ path: artifactPath(`web/layout-${at.name}-${size.name}-${scheme}.png`) });
          }
          await page.emulateMedia({ colorScheme: 'light' });
          if (at.dock) {
            // Read to the page's very foot: the dock still stands wholly on the screen.
            await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
            await page.waitForFunction(() => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2);
            failures.push(...(await dockOutside(page, at.dock)).map((p) => `${where}, at the page's foot: ${p}`));
            if (size.name === '390-text200') await page.screenshot({ path: artifactPath(`web/layout-${at.name}-${size.name}-foot.png`) });
          }
        }
      }
      expect(failures).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await listening.close();
      await nerve.stop();
    }
  }, 600_000);
});

/** Opens one page as a person would land on it, at `text` root font size. */
async function visit(page: Page, at: PageCase, text: string): Promise<void> {
  await page.goto('/#/blank-between-pages');
  if (at.view) await page.evaluate(({ pane, name }) => localStorage.setItem(`collie.view.${pane}`, name), at.view);
  await page.goto(`/${at.hash}`);
  await page.evaluate((size) => (document.documentElement.style.fontSize = size), text);
  await page.locator(at.ready).first().waitFor();
}

/** From the top of the pane's header to the foot of its view switch (or of the header where no switch shows). */
function paneHeaderHeight(page: Page): Promise<number> {
  return page.evaluate(() => {
    const shown = (sel: string) => [...document.querySelectorAll(sel)].find((e) => (e as HTMLElement).offsetHeight > 0);
    const head = shown('.pane-head')!;
    const last = shown('.pane-views-switch') ?? head;
    return Math.round(last.getBoundingClientRect().bottom - head.getBoundingClientRect().top);
  });
}
