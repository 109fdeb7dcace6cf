import { join } from 'node:path';
import { OUTCOME } from '@collie/protocol';
import { ReceiptStore, boxForm, startBridge } from '@collie/bridge';
import { artifactPath, claudeInputText, launchChromium, phoneContext, plainReply, startClaude, startMessagesApi, startTmux, tempDir, testBridgeOptions, testDevice } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { buildWeb, untilPane } from './e2e-setup';

describe('text a send left in the box, on the phone (issue 15)', () => {
  it('shows what is in the box with "Send it" and "Clear it"; Send it submits it and the offer goes away', async () => {
    await using work = await tempDir('collie-web-left-');
    const dist = join(work.path, 'dist');
    await buildWeb(dist);
    await using tmux = await startTmux();
    await using api = await startMessagesApi({ fallback: plainReply('Fine.') });
    await using claude = await startClaude(tmux, api);
    await using state = await tempDir('collie-state-');
    const id = `${tmux.name}:${claude.paneId}`;
    const text = 'please also update the changelog';
    // A send whose check failed left its text in the box (its receipt, as the bridge stores it).
    const store = await ReceiptStore.open(state.path);
    await store.put({
      receipt: { requestId: 'left-1', paneId: id, kind: 'text', summary: text, state: 'not_submitted', outcome: OUTCOME.notSubmitted, final: true, createdAt: Date.now(), updatedAt: Date.now(), left: text },
      leftHash: store.fingerprint('box', boxForm(text)),
    });
    await store.close();
    await tmux.typeText(claude.paneId, text);
    await claude.waitForScreen((s) => claudeInputText(s) === text);

    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
    await untilPane(bridge.hub, 'the pane with its draft', (p) => p.id === id && p.draft === text);
    await using browser = await launchChromium();
    await using context = await phoneContext(browser, { baseURL: bridge.url });
    await context.addCookies([(await testDevice(state.path)).cookie(bridge.url)]);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`/#/pane/${encodeURIComponent(id)}`);
    const offer = page.locator('.left-in-box');
    await offer.waitFor();
    expect(await offer.locator('.left-in-box-text').textContent()).toBe(text);
    await offer.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifactPath('web/left-in-box.png') });
    await offer.getByRole('button', { name: 'Send it' }).click();
    await api.waitForRequest((q) => q.kind === 'main' && q.prompt === text, 30_000);
    await offer.waitFor({ state: 'detached' });
    expect(await page.locator('.send', { hasText: text }).locator('.send-outcome').textContent()).toContain('sent from the box');
    await page.screenshot({ path: artifactPath('web/left-in-box-sent.png') });
  }, 180_000);
});
