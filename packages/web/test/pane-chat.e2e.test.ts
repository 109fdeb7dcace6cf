import { artifactPath, bashPermission, claudePermissionDialog, plainReply } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { claudePhone, claudeReady } from './phone-rig';

const REPLY = [
  '## Plan',
  '',
  'I read **the parser** and found `two` problems:',
  '',
  '1. A <script>alert(1)</script> stays words',
  '2. A [bad link](javascript:alert(1)) is no link, a [good one](https://example.com/docs) is',
].join('\n');

describe('a pane’s Chat on the phone (issue 13)', () => {
  it('Chat is the default for a Claude pane, follows live, shows tool cards, searches; Terminal one tap away; side by side on a desktop', async () => {
    await using rig = await claudePhone('collie-web-chat-', {
      api: { fallback: plainReply('Fine.') },
      before: async ({ api, claude }) => {
        api.script(plainReply(REPLY));
        await claude.submit('read the parser');
        await claude.waitForScreen((s) => s.includes('Plan'), 30_000);
      },
      ready: claudeReady,
      readyMs: 30_000,
      phone: { timeout: 30_000, scheme: 'dark' },
    });
    const { api, claude, id, page } = rig;
    await page.goto(`/#/pane/${encodeURIComponent(id)}`);
    const chat = page.locator('.pane-chat-scroll');
    await chat.locator('.chat-user', { hasText: 'read the parser' }).waitFor();
    await chat.locator('.chat-markdown').getByRole('heading', { name: 'Plan' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Chat' }).getAttribute('aria-selected')).toBe('true');
    // Raw HTML is words; only the https link is a link.
    expect(await chat.locator('script').count()).toBe(0);
    expect(await chat.locator('.chat-markdown').first().textContent()).toContain('<script>alert(1)</script>');
    expect(await chat.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(['https://example.com/docs']);

    // Live: a tool call with its permission, then its result and the closing words.
    api.script(bashPermission('touch made-on-the-phone && seq 1 40'));
    await claude.submit('make the file');
    await claude.waitForScreen(claudePermissionDialog, 30_000);
    const tool = chat.locator('.chat-tool', { hasText: 'touch made-on-the-phone' });
    await tool.locator('.tool-status', { hasText: 'running' }).waitFor();
    await tool.scrollIntoViewIfNeeded();
    // The dialog's card sits at the chat's foot, above the composer: answered without switching.
    const card = page.locator('.pane-views-chat .pane-chat + .ask .card');
    await card.waitFor();
    expect(await page.locator('.card').count(), 'one card, not a second copy under the title').toBe(1);
    await card.scrollIntoViewIfNeeded();
    const [foot, cardBox, dock] = await Promise.all([chat.boundingBox(), card.boundingBox(), page.locator('.dock').boundingBox()]);
    expect(foot && cardBox && dock && foot.y + foot.height <= cardBox.y + 1 && cardBox.y < dock.y).toBe(true);
    await page.screenshot({ path: artifactPath('web/pane-chat-tool-running.png') });
    await card.locator('.option-primary').click();
    await claude.waitForScreen((s) => !claudePermissionDialog(s), 30_000);
    await tool.locator('.tool-status', { hasText: 'done' }).waitFor();
    // Long output is folded: its first lines, the rest one tap away.
    await tool.locator('.tool-fold').waitFor();
    expect(await tool.locator('.tool-output-head').textContent()).toBe(Array.from({ length: 12 }, (_, i) => String(i + 1)).join('\n'));
    await chat.locator('.chat-markdown', { hasText: 'The command finished' }).waitFor();
    await page.screenshot({ path: artifactPath('web/pane-chat-390.png') });

    // Search within the chat.
    await page.getByRole('searchbox', { name: 'Search this chat' }).fill('parser');
    await page.locator('.pane-chat-count', { hasText: /of/ }).waitFor();
    expect(await chat.locator('.chat-item').count()).toBe(2);
    await page.screenshot({ path: artifactPath('web/pane-chat-search.png') });
    await page.getByRole('searchbox', { name: 'Search this chat' }).fill('');

    // Terminal, remembered for this pane.
    await page.getByRole('tab', { name: 'Terminal' }).click();
    await page.locator('.term-box').waitFor();
    expect(await page.locator('.pane-views-chat').isVisible()).toBe(false);
    await page.screenshot({ path: artifactPath('web/pane-chat-terminal.png') });
    await page.reload();
    await page.locator('.term-box').waitFor();
    expect(await page.getByRole('tab', { name: 'Terminal' }).getAttribute('aria-selected')).toBe('true');

    // A desktop width: both side by side.
    await page.setViewportSize({ width: 1280, height: 800 });
    await chat.locator('.chat-tool').first().waitFor();
    const [c, t] = await Promise.all([page.locator('.pane-views-chat').boundingBox(), page.locator('.pane-views-terminal').boundingBox()]);
    expect(c && t && c.x + c.width <= t.x + 1).toBe(true);
    await page.screenshot({ path: artifactPath('web/pane-chat-1280.png') });
  }, 240_000);
});
