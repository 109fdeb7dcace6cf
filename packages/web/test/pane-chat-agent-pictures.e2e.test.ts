import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterTool, artifactPath, tempDir, plainReply } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { axeBoth } from './e2e-setup';
import { png } from './png';
import { claudePhone, loadedWidth } from './phone-rig';

/**
 * Issue 27 (item 5), pictures the agent's transcript carries: the real Claude Code TUI Reads a
 * PNG in its folder (the scripted API asks for the Read), Claude Code stores the picture in its
 * transcript, and in Chromium at 390×844 the pane's Chat shows it inline under the Read, read
 * from `GET /api/panes/:id/chat/images/:ref`; a tap shows it large. The route refuses a
 * request without a device (401) and a block that is not there (404).
 */
describe('pictures the agent read, in a pane’s Chat', () => {
  it('a PNG the agent Reads shows inline and enlarges; the route refuses strangers and unknown refs', async () => {
    await using folder = await tempDir('collie-agent-pictures-cwd-');
    const file = join(folder.path, 'green.png');
    await writeFile(file, png(90, 60, [30, 160, 60]));
    await using rig = await claudePhone('collie-agent-pictures-e2e-', { api: { fallback: plainReply('Fine.') }, claude: { width: 100, height: 40, cwd: folder.path, allow: ['Read'] }, phone: { timeout: 30_000 } });
    const { api, tmux, bridge, id, page } = rig;
    const { context, problems } = rig.phone;
    const idle = () => rig.idle(60_000);
    await rig.phone.openPane(id);
    const chat = page.locator('.pane-chat-scroll');

    api.script({
      main: [
        () => ({ blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: file } }], stopReason: 'tool_use' }),
        afterTool(() => 'A green rectangle.'),
      ],
    });
    await page.getByLabel('Text to send to the pane').fill('look at green.png');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    // The model got the picture back from the real Read: Claude Code's own image block.
    const answered = await api.waitForRequest((q) => q.kind === 'main' && q.toolResults.length > 0, 90_000);
    expect(JSON.stringify(answered.body)).toContain('"media_type":"image/png"');
    await chat.locator('.chat-markdown', { hasText: 'A green rectangle.' }).waitFor({ timeout: 60_000 });
    await idle();

    // Inline, under the Read: the picture itself, from the bridge's route, named by its file.
    const picture = chat.getByRole('button', { name: 'Enlarge green.png' });
    await picture.waitFor();
    const img = picture.locator('img');
    expect(await loadedWidth(img)).toBe(90);
    const src = (await img.getAttribute('src')) ?? '';
    expect(src).toMatch(/^\/api\/panes\/.+\/chat\/images\/\d+\.\d+\.\d+$/);
    // No bytes in the events: the item carries a reference only.
    expect(await chat.textContent()).not.toMatch(/iVBORw0KGgo/);
    await picture.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifactPath('web/agent-pictures-inline.png') });

    // A tap: large, in the same dialog the person's pictures use.
    await picture.click();
    const dialog = page.getByRole('dialog', { name: 'green.png' });
    await dialog.waitFor();
    const large = await dialog.locator('img').boundingBox();
    expect(large && large.width).toBeGreaterThan(300);
    await axeBoth(page, '.picture-dialog');
    await page.screenshot({ path: artifactPath('web/agent-pictures-enlarged.png') });
    await dialog.getByRole('button', { name: 'Close' }).click();

    // The route: the picture with its type and nosniff; refusals for the rest.
    const ok = await context.request.get(src);
    expect(ok.status()).toBe(200);
    expect(ok.headers()['content-type']).toBe('image/png');
    expect(ok.headers()['x-content-type-options']).toBe('nosniff');
    expect((await ok.body()).subarray(1, 4).toString('latin1')).toBe('PNG');
    const stranger = await fetch(new URL(src, bridge.url));
    expect(stranger.status).toBe(401);
    const base = src.replace(/[^/]+$/, '');
    expect((await context.request.get(`${base}1.0.0`)).status()).toBe(404);
    expect((await context.request.get(`${base}..%2F..%2Fetc%2Fpasswd`)).status()).toBe(404);
    expect((await context.request.get(`/api/panes/${encodeURIComponent(`${tmux.name}:%999`)}/chat/images/1.0`)).status()).toBe(404);
    expect(problems).toEqual([]);
  }, 300_000);
});
