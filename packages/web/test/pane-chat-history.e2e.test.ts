import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startBridge } from '@collie/bridge';
import { artifactPath, plainReply, startClaude, startMessagesApi, startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { untilPane } from './e2e-setup';
import { openPhone, webWork } from './phone-rig';

/** A long session in Claude Code's own format, for the real CLI to resume. */
function longSession(sessionId: string, cwd: string, turns: number): string {
  const lines: string[] = [];
  let parent: string | null = null;
  const at = Date.parse('2026-12-03T09:00:00Z');
  for (let i = 0; i < turns; i++) {
    for (const role of ['user', 'assistant'] as const) {
      const uuid = randomUUID();
      const content = role === 'user' ? `question ${i}` : [{ type: 'text', text: `Answer ${i}: ${'a few words of a reply '.repeat(3)}` }];
      lines.push(JSON.stringify({ parentUuid: parent, isSidechain: false, type: role, message: { role, content, ...(role === 'assistant' ? { id: `msg_${i}`, model: 'claude-opus-5-5', type: 'message', stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } } : {}) }, uuid, timestamp: new Date(at + lines.length * 1000).toISOString(), sessionId, cwd, userType: 'external', entrypoint: 'cli', version: '2.1.334' }));
      parent = uuid;
    }
  }
  return `${lines.join('\n')}\n`;
}

describe('a pane’s Chat History on the phone (issue 13)', () => {
  it('a resumed long session opens at its end; scrolling to the top loads History in order, keeping the place', async () => {
    await using work = await webWork('collie-web-chat-history-');
    const { dist } = work;
    await using tmux = await startTmux();
    await using api = await startMessagesApi({ fallback: plainReply('Fine.') });
    await using cwd = await tempDir('collie-history-cwd-');
    await using config = await tempDir('collie-history-config-');
    const session = randomUUID();
    const { realpath } = await import('node:fs/promises');
    const real = await realpath(cwd.path);
    const dir = join(config.path, 'projects', real.replace(/[^A-Za-z0-9]/g, '-'));
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `${session}.jsonl`), longSession(session, real, 80));
    // The CLI's own config goes to its temp dir; the session lives in ours, which it is pointed at.
    await using first = await startClaude(tmux, api, { cwd: real });
    const { cp } = await import('node:fs/promises');
    await cp(join(first.configDir, '.claude.json'), join(config.path, '.claude.json'));
    await cp(join(first.configDir, 'settings.json'), join(config.path, 'settings.json'));
    await first.kill();
    await using claude = await startClaude(tmux, api, { cwd: real, env: { CLAUDE_CONFIG_DIR: config.path }, args: ['--resume', session] });
    await using state = await tempDir('collie-state-');
    const id = `${tmux.name}:${claude.paneId}`;

    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
    await untilPane(bridge.hub, 'the claude pane', (p) => p.id === id && p.harness === 'claude', 30_000);
    await using phone = await openPhone(bridge, state.path, { timeout: 30_000, scheme: 'dark' });
    const { page } = phone;
    await page.goto(`/#/pane/${encodeURIComponent(id)}`);

    const chat = page.locator('.pane-chat-scroll');
    await chat.locator('.chat-markdown', { hasText: 'Answer 79:' }).waitFor();
    expect(await chat.locator('.chat-user', { hasText: /^question 0$/ }).count()).toBe(0);
    await page.screenshot({ path: artifactPath('web/pane-chat-history-end.png') });
    // Scroll to the top: History loads above, and the item that was first stays in view.
    // Each scroll up must load a page: more of the person's questions (and the button ready again),
    // or the start of the conversation.
    const start = chat.locator('.pane-chat-note', { hasText: 'Start of the conversation' });
    for (let page_ = 0; (await start.count()) === 0; page_++) {
      expect(page_, 'pages of History loaded by scrolling up').toBeLessThan(20);
      const before = await chat.locator('.chat-user').count();
      // One page scroll (the Chat has no scroller of its own): the person scrolls up to the page's top.
      // From below the Load History button, so that it comes into view as a person's scroll would bring it.
      await page.evaluate(async () => {
        window.scrollTo(0, window.innerHeight * 2);
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        window.scrollTo(0, 0);
      });
      await page.waitForFunction(
        (n) =>
          (document.querySelectorAll('.pane-chat-scroll .chat-user').length > n && document.querySelector('.pane-chat-older[disabled]') === null) ||
          [...document.querySelectorAll('.pane-chat-scroll .pane-chat-note')].some((e) => e.textContent === 'Start of the conversation'),
        before,
        { timeout: 30_000 },
      );
    }
    await chat.locator('.chat-user', { hasText: /^question 0$/ }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByText('Start of the conversation').waitFor();
    const questions = await chat.locator('.chat-user').allTextContents();
    expect(questions.slice(0, 80)).toEqual(Array.from({ length: 80 }, (_, i) => `question ${i}`));
    await page.screenshot({ path: artifactPath('web/pane-chat-history-start.png') });
  }, 240_000);
});
