import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startBridge } from '@collie/bridge';
import { startDesk } from '@collie/durable-sdk/examples/desk';
import { artifactPath, launchChromium, phoneContext, tempDir, testBridgeOptions, testDevice } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { buildWeb } from './e2e-setup';

describe('durable agents on the phone (390×844), desk through the real bridge', () => {
  it('the section, the conversation list, the chat and its items, a question card and its tap', async () => {
    await using work = await tempDir('collie-durable-e2e-');
    const dist = join(work.path, 'dist');
    await buildWeb(dist);
    const desk = await startDesk({ socket: join(work.path, 'desk.sock') }, { paceMs: 5 });
    const config = join(work.path, 'config');
    await mkdir(config, { recursive: true });
    await writeFile(join(config, 'tmp.json'), JSON.stringify({ agents: [{ name: 'desk', socket: desk.listening.address }] }));
    await rename(join(config, 'tmp.json'), join(config, 'sources.json'));
    await using bridge = await startBridge(testBridgeOptions(join(work.path, 'no-tmux'), join(work.path, 'state'), { webDir: dist, configDir: config }));
    await using browser = await launchChromium();
    await using context = await phoneContext(browser, { baseURL: bridge.url });
    await context.addCookies([(await testDevice(join(work.path, 'state'))).cookie(bridge.url)]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/');

    // The section: name, Experimental, runtime and local, counts (the waiting one in the needs-you colour). It waits, so it sits above.
    const row = page.locator('.durable-row', { hasText: 'desk' });
    await row.locator('.count.needs-you').waitFor();
    expect(await row.locator('.durable-line1').textContent()).toBe('desk Experimental');
    expect(await row.locator('.durable-line2').textContent()).toBe('desk, local');
    // The counts carry their words and sit at the row's right edge.
    expect(await row.locator('.durable-right').textContent()).toBe('2 open · 1 needs you');
    const rowBox = (await row.boundingBox())!;
    const countsBox = (await row.locator('.durable-right').boundingBox())!;
    expect(rowBox.x + rowBox.width - (countsBox.x + countsBox.width)).toBeLessThanOrEqual(20);
    await page.screenshot({ path: artifactPath('web/durable-dashboard.png') });

    // The list: the waiting conversation first, its question as the line under it; then Closed with Load more.
    // The row opens from any point of it: here its right edge, beside the counts, and its bottom corner.
    expect(await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest('a')?.getAttribute('href'), [rowBox.x + rowBox.width - 4, rowBox.y + rowBox.height - 4])).toBe('#/durable/desk');
    await row.click({ position: { x: rowBox.width - 6, y: rowBox.height / 2 } });
    await page.locator('.durable-conv').first().waitFor();
    expect(await page.locator('.durable-conv .durable-line1').first().textContent()).toContain('Save a note');
    expect(await page.locator('.durable-conv .durable-line2').first().textContent()).toBe('Write notes/today.md?');
    await page.getByRole('button', { name: 'Load more' }).waitFor();
    expect(await page.locator('.durable-closed').count()).toBe(100);
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.waitForFunction(() => document.querySelectorAll('.durable-closed').length === 200);
    expect(await page.getByText('Untitled conversation').count()).toBeGreaterThan(0);
    await page.screenshot({ path: artifactPath('web/durable-list.png') });

    // The chat of the sample conversation: eight kinds drawn safely.
    await page.goto('/');
    await row.click();
    await page.locator('.durable-conv', { hasText: 'Morning notes' }).click();
    await page.locator('.chat-markdown').waitFor();
    // A reply's headings sit under the page's h1 (its top heading an h2), named by their words.
    expect(await page.locator('.chat-markdown').getByRole('heading', { level: 2 }).textContent()).toBe('The desk');
    expect(await page.locator('.chat-markdown').textContent()).toContain('<script>alert(1)</script>');
    expect(await page.locator('script:not([src])').count()).toBe(0);
    const hrefs = await page.locator('.chat a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.length).toBeGreaterThan(0);
    for (const h of hrefs) expect(h).toMatch(/^https:\/\//);
    expect(await page.locator('.chat-code figcaption').textContent()).toBe('sh');
    expect(await page.locator('.chat-tool .tool-status').textContent()).toBe('done');
    expect(await page.locator('.chat-user').textContent()).toBe('What is on the desk?');
    await page.screenshot({ path: artifactPath('web/durable-chat.png'), fullPage: true });

    // A question card: Collie's words, the agent's label quiet; Always allow takes two taps; Allow closes it.
    await page.goto('/');
    await row.click();
    await page.locator('.durable-conv', { hasText: 'Save a note' }).click();
    const card = page.locator('.durable-card');
    await card.waitFor();
    expect(await card.locator('.card-caption').textContent()).toBe('Needs your answer · desk');
    expect(await card.locator('.option > span:first-child').allTextContents()).toEqual(['Allow', 'Always allow', 'Deny']);
    expect(await card.locator('.option-quiet').first().textContent()).toBe('Yes, write it');
    await card.getByRole('button', { name: /Always allow/ }).click();
    await card.getByText('Tap again to always allow write_file').waitFor();
    await page.screenshot({ path: artifactPath('web/durable-card.png') });
    await card.getByRole('button', { name: /^Allow/ }).click();
    await card.waitFor({ state: 'detached' });
    await page.locator('.chat-reply', { hasText: 'Saved the note.' }).waitFor();
    await page.screenshot({ path: artifactPath('web/durable-after-tap.png') });
    expect(errors).toEqual([]);
    await desk.close();
  });
});
