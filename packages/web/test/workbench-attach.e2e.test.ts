import { join } from 'node:path';
import { startBridge } from '@collie/bridge';
import { artifactPath, launchChromium, phoneContext, plainReply, startClaude, startMessagesApi, startTmux, tempDir, testBridgeOptions, testDevice } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buildWeb, showTerminal, untilPane } from './e2e-setup';

const shot = (page: Page, name: string) => page.screenshot({ path: artifactPath(`web/${name}.png`) });

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const lastUserBlocks = (body: unknown): Json[] => {
  const messages = isObject(body) && Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
  const last = messages.filter((m) => m.role === 'user').at(-1);
  return last && Array.isArray(last.content) ? last.content.filter(isObject) : [];
};

/**
 * The composer's Attach button on a phone-sized Chromium, a real bridge and the real Claude
 * Code TUI (offline, scripted Messages API): a screenshot picked from the file picker reaches
 * the model as an image block with the text; a file the bridge refuses says why.
 */
describe('attaching a file from the phone', () => {
  it('picks a screenshot, sends it with the text, and shows a refused file with its reason', async () => {
    await using work = await tempDir('collie-attach-e2e-');
    const dist = join(work.path, 'dist');
    await buildWeb(dist);
    await using tmux = await startTmux();
    await using api = await startMessagesApi();
    await using claude = await startClaude(tmux, api, { width: 100, height: 40 });
    await using state = await tempDir('collie-state-');
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
    const id = `${tmux.name}:${claude.paneId}`;
    await untilPane(bridge.hub, 'the pane idle', (p) => p.id === id && (p.state === 'idle' || p.state === 'done') && p.dialog === null, 60_000);

    await using browser = await launchChromium();
    await using context = await phoneContext(browser, { baseURL: bridge.url });
    await context.addCookies([(await testDevice(state.path)).cookie(bridge.url)]);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.emulateMedia({ colorScheme: 'dark' });
    const problems: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && !/status of 41[35]/.test(m.text()) && problems.push(m.text())));
    page.on('pageerror', (error) => void problems.push(error.message));

    await page.goto(`/#/pane/${encodeURIComponent(id)}`);
    await page.locator('.conn-live').waitFor();
    await showTerminal(page);

    // The file picker, as a person opens it: the Attach button.
    const pick = async (files: { name: string; mimeType: string; buffer: Buffer }[]) => {
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Attach files' }).click();
      await (await chooser).setFiles(files);
    };

    // A file whose bytes are no image, a PDF or text: refused, with the bridge's reason.
    await pick([{ name: 'tool.png', mimeType: 'image/png', buffer: Buffer.from('\x7fELF\x02\x01\x01\x00\x00\x00\x00', 'latin1') }]);
    const refused = page.locator('.attachment-failed');
    await refused.locator('.attachment-error', { hasText: 'tool.png: the bytes are not an image (PNG, JPEG, GIF, WebP), a PDF or UTF-8 text' }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
    await shot(page, 'attach-refused');
    await page.getByRole('button', { name: 'Remove tool.png' }).click();

    await pick([{ name: 'Screenshot 2026-12-03.png', mimeType: 'image/png', buffer: PNG }]);
    await page.locator('.attachment-ready', { hasText: 'Screenshot_2026-12-03.png' }).waitFor();
    await page.getByLabel('Text to send to the pane').fill('what is on this screenshot?');
    await shot(page, 'attach-ready');

    api.script(plainReply('One white pixel.'));
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => page.locator('.composer-status .status-words').textContent(), { timeout: 60_000 }).toBe('typed into the pane');
    const req = await api.waitForRequest((q) => q.kind === 'main' && lastUserBlocks(q.body).some((b) => b.type === 'image'), 60_000);
    expect(req.prompt).toContain('what is on this screenshot?');
    // Sent: the file and the text leave the composer.
    await expect.poll(() => page.locator('.attachment').count()).toBe(0);
    expect(await page.getByLabel('Text to send to the pane').inputValue()).toBe('');
    await page.locator('.term', { hasText: 'One white pixel.' }).waitFor({ timeout: 30_000 });
    await shot(page, 'attach-sent');
    expect(problems).toEqual([]);
  }, 240_000);
});
