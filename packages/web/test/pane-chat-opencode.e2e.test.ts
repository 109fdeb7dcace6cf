import { join } from 'node:path';
import { startBridge } from '@collie/bridge';
import { artifactPath, chatReply, chatToolCall, launchChromium, phoneContext, startChatApi, startOpencode, startTmux, tempDir, testBridgeOptions, testDevice } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { axeBoth, buildWeb, untilPane } from './e2e-setup';

const REPLY = ['## Findings', '', 'The **parser** drops `two` lines:', '', '1. A <script>alert(1)</script> stays words', '2. See [the docs](https://example.com/docs)'].join('\n');

describe('an OpenCode pane’s Chat on the phone at 390×844', () => {
  it('Chat is the default for an OpenCode pane once its session is found in its database: the person’s words, markdown, a bash card with folded output, a live turn', async () => {
    await using work = await tempDir('collie-web-opencode-chat-');
    const dist = join(work.path, 'dist');
    await buildWeb(dist);
    await using tmux = await startTmux();
    await using api = await startChatApi();
    await using oc = await startOpencode(tmux, api, { permission: { bash: 'allow', edit: 'allow' } });
    await using state = await tempDir('collie-state-');
    const id = `${tmux.name}:${oc.paneId}`;
    api.script(chatReply(REPLY));
    await oc.submit('look at the parser');
    await oc.waitForScreen((s) => s.includes('Findings'), 240_000);
    api.script(...chatToolCall('bash', { command: 'seq 1 40', description: 'Count' }));
    await oc.submit('count to forty');
    await oc.waitForScreen((s) => s.includes('Tool finished'), 240_000);

    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
    await untilPane(bridge.hub, 'the OpenCode pane', (p) => p.id === id && p.harness === 'opencode', 60_000);
    await using browser = await launchChromium();
    await using context = await phoneContext(browser, { baseURL: bridge.url });
    await context.addCookies([(await testDevice(state.path)).cookie(bridge.url)]);
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await page.goto(`/#/pane/${encodeURIComponent(id)}`);

    const chat = page.locator('.pane-chat-scroll');
    await chat.locator('.chat-user', { hasText: 'look at the parser' }).waitFor();
    await chat.locator('.chat-markdown h4', { hasText: 'Findings' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Chat' }).getAttribute('aria-selected')).toBe('true');
    expect(await chat.locator('script').count()).toBe(0);
    expect(await chat.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(['https://example.com/docs']);
    const tool = chat.locator('.chat-tool', { hasText: 'seq 1 40' });
    await tool.locator('.tool-status', { hasText: 'done' }).waitFor();
    await tool.locator('.tool-fold').waitFor();
    expect(await tool.locator('.tool-output-head').textContent()).toBe(Array.from({ length: 12 }, (_, i) => String(i + 1)).join('\n'));

    // Live: a turn typed at the terminal shows up while the page is open.
    api.script(chatReply('Forty it is.'));
    await oc.submit('thanks');
    await chat.locator('.chat-markdown', { hasText: 'Forty it is.' }).waitFor();
    await chat.locator('.chat-user', { hasText: 'thanks' }).waitFor();
    await axeBoth(page, '.pane-chat');
    // The chat followed to its foot: with the page scrolled down, the live answer sits above the composer.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const [last, dock] = await Promise.all([chat.locator('.chat-markdown', { hasText: 'Forty it is.' }).boundingBox(), page.locator('.dock').boundingBox()]);
    expect(last && dock && last.y > 0 && last.y + last.height <= dock.y).toBe(true);
    await page.screenshot({ path: artifactPath('web/pane-chat-opencode-390.png') });
  }, 600_000);
});
