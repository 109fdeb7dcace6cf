import { plainReply } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { axeBoth } from './e2e-setup';
import { png } from './png';
import { claudePhone, loadedWidth, shot } from './phone-rig';

/**
 * Issue 27 (items 5 and 6), on the real Claude Code TUI through a real bridge, in Chromium at
 * 390×844: an attached picture shows as a thumbnail before it is sent and inline in the Chat
 * after (tap: a dialog shows it large), never as the bridge's path; a long message, which Claude
 * Code records inside its `<pasted_content>` wrapper, shows as its words in your bubble.
 */
describe('pictures and pasted text in a pane’s Chat', () => {
  it('thumbnail before sending, the picture inline after, enlarged on a tap; no path, no wrapper, no stray blank lines', async () => {
    await using rig = await claudePhone('collie-pictures-e2e-', { api: { fallback: plainReply('Fine.') }, claude: { width: 100, height: 40 }, phone: { timeout: 30_000 } });
    const { api, id, page } = rig;
    const { problems } = rig.phone;
    const idle = () => rig.idle(60_000);
    await rig.phone.openPane(id);
    const chat = page.locator('.pane-chat-scroll');
    const box = page.getByLabel('Text to send to the pane');

    // Attached: a thumbnail of the picture itself, before anything is sent.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Attach files' }).click();
    await (await chooser).setFiles([{ name: 'shot.png', mimeType: 'image/png', buffer: png(120, 80, [200, 40, 40]) }]);
    const thumb = page.locator('.attachment-ready img.attachment-thumb');
    await thumb.waitFor();
    expect(await loadedWidth(thumb)).toBe(120);
    await box.fill('what is on this screenshot?');
    await shot(page, 'pictures-thumbnail');

    api.script(plainReply('A red box.'));
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await api.waitForRequest((q) => q.kind === 'main' && q.prompt.includes('what is on this screenshot?'), 60_000);
    await idle();

    // In the Chat: the picture inline in your bubble, its name as its words, no path.
    const bubble = chat.locator('.chat-user', { hasText: 'what is on this screenshot?' });
    const picture = bubble.getByRole('button', { name: 'Enlarge shot.png' });
    await picture.waitFor();
    expect(await loadedWidth(picture.locator('img'))).toBe(120);
    expect(await chat.textContent()).not.toMatch(/uploads\/|u_[0-9a-f]{16}/);
    // The send's receipt names the file too, not the bridge's path.
    expect(await page.locator('.send-summary').allTextContents()).toEqual(['shot.png · what is on this screenshot?']);
    await chat
      .locator('.chat-markdown', { hasText: 'A red box.' })
      .waitFor()
      .catch(async (e: Error) => {
        // Say what the Chat held and what the model was asked, so a failure names its side.
        const asked = api.requests.filter((q) => q.kind === 'main').map((q) => q.prompt.slice(0, 60));
        throw new Error(`${e.message}\nthe Chat: ${await chat.innerText()}\nmain requests: ${JSON.stringify(asked)}`);
      });
    await shot(page, 'pictures-inline');

    // A tap: the picture large, in a dialog that names it and closes with its button.
    await picture.click();
    const dialog = page.getByRole('dialog', { name: 'shot.png' });
    await dialog.waitFor();
    const large = await dialog.locator('img').boundingBox();
    expect(large && large.width).toBeGreaterThan(300);
    await axeBoth(page, '.picture-dialog');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'pictures-enlarged');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);

    // A long review message: Claude Code records it inside its pasted_content wrapper.
    const comments = Array.from({ length: 30 }, (_, i) => `src/parser.ts:${i + 1}\n> let x${i} = ${i}\nmake it const (${i})`).join('\n\n');
    const review = `Review comments on your changes (30):\n\n${comments}`;
    api.script(plainReply('Done with the review.'));
    await box.fill(review);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const sent = await api.waitForRequest((q) => q.kind === 'main' && q.prompt.includes('make it const (29)'), 60_000);
    // The wrapper is real: the model got it.
    expect(sent.userMessages.at(-1)).toMatch(/^<pasted_content id=/);
    const own = chat.locator('.chat-user', { hasText: 'make it const (29)' });
    await own.waitFor();
    const words = (await own.textContent()) ?? '';
    expect(words).not.toContain('pasted_content');
    expect(words.startsWith('Review comments on your changes (30):')).toBe(true);
    expect(words.endsWith('make it const (29)')).toBe(true);
    await own.scrollIntoViewIfNeeded();
    await shot(page, 'pictures-review-bubble');
    expect(problems).toEqual([]);
  }, 300_000);
});
