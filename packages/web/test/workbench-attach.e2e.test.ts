import { plainReply } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { showTerminal } from './e2e-setup';
import { claudePhone, shot } from './phone-rig';

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
    await using rig = await claudePhone('collie-attach-e2e-', { claude: { width: 100, height: 40 }, phone: { timeout: 20_000, scheme: 'dark', console: true, ignore: /status of 41[35]/ } });
    const { api, claude, bridge, id, page } = rig;
    const { problems } = rig.phone;

    await rig.phone.openPane(id);
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
