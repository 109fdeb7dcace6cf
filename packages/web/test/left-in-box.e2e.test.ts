import { OUTCOME } from '@collie/protocol';
import { ReceiptStore, boxForm } from '@collie/bridge';
import { artifactPath, claudeInputText, plainReply } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { claudePhone } from './phone-rig';

describe('text a send left in the box, on the phone (issue 15)', () => {
  it('shows what is in the box with "Send it" and "Clear it"; Send it submits it and the offer goes away', async () => {
    const text = 'please also update the changelog';
    await using rig = await claudePhone('collie-web-left-', {
      api: { fallback: plainReply('Fine.') },
      before: async ({ tmux, claude, state, id }) => {
        // A send whose check failed left its text in the box (its receipt, as the bridge stores it).
        const store = await ReceiptStore.open(state.path);
        await store.put({
          receipt: { requestId: 'left-1', paneId: id, kind: 'text', summary: text, state: 'not_submitted', outcome: OUTCOME.notSubmitted, final: true, createdAt: Date.now(), updatedAt: Date.now(), left: text },
          leftHash: store.fingerprint('box', boxForm(text)),
        });
        await store.close();
        await tmux.typeText(claude.paneId, text);
        await claude.waitForScreen((s) => claudeInputText(s) === text);
      },
      ready: { what: 'the pane with its draft', check: (p, id) => p.id === id && p.draft === text },
      readyMs: 15_000,
      phone: { timeout: 15_000, scheme: 'dark' },
    });
    const { api, id, page } = rig;
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
