import { join } from 'node:path';
import { startBridge } from '@collie/bridge';
import { artifactPath, plainReply, startClaude, startMessagesApi, startTmux, tempDir, testBridgeOptions, testDevice } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buildWeb, untilPane } from './e2e-setup';
import { openPhone } from './phone-rig';

/** A long press of the composer's Send, then "Send as message". */
async function sendAsMessage(page: Page): Promise<void> {
  await page.locator('.composer-send').hover();
  await page.mouse.down();
  await page.locator('.wk-offer').waitFor();
  await page.mouse.up();
  await page.getByRole('menuitem', { name: 'Send as message' }).click();
}

describe('Send as message carries the token of the session the text was written for (390×844)', () => {
  it('a session replaced behind the open page: not sent: pane replaced, nothing typed; the next press goes to the session now on screen', async () => {
    await using work = await tempDir('collie-web-walky-replaced-');
    const dist = join(work.path, 'dist');
    await buildWeb(dist);
    await using tmux = await startTmux();
    await using api = await startMessagesApi({ fallback: plainReply('Noted.') });
    await using state = await tempDir('collie-state-');
    const device = await testDevice(state.path, 'phone-altan');
    const first = await startClaude(tmux, api, { session: 'target' });
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
    const id = `${tmux.name}:${first.paneId}`;
    const idleHere = (token?: string) => (p: { id: string; harness: string; state: string; draft: unknown; token: string }) =>
      p.id === id && p.harness === 'claude' && (p.state === 'idle' || p.state === 'done') && p.draft === null && (token === undefined || p.token !== token);
    const before = await untilPane(bridge.hub, 'the idle Claude pane', idleHere(), 60_000);

    await using phone = await openPhone(bridge, device, { timeout: 30_000 });
    const { page } = phone;
    await page.goto(`/#/pane/${encodeURIComponent(id)}`);
    // The person writes while reading this session.
    const box = page.getByLabel('Text to send to the pane');
    await box.fill('Stop and report what you changed.');

    // Behind the open page the session is replaced: its tmux server goes, a new one gives its pane id to a new Claude.
    await tmux.tmux('kill-server').catch(() => undefined);
    await Promise.resolve(first[Symbol.asyncDispose]()).catch(() => undefined);
    await expect.poll(() => bridge.hub.panes.has(id), { timeout: 30_000 }).toBe(false);
    let second: Awaited<ReturnType<typeof startClaude>> | null = null;
    for (let tries = 0; !second; tries++) {
      // A client started while the killed server still winds down meets "server exited unexpectedly".
      second = await startClaude(tmux, api, { session: 'target' }).catch((err: unknown) => {
        if (tries >= 20) throw err;
        return new Promise<null>((r) => setTimeout(() => r(null), 200));
      });
    }
    await using _second = second;
    expect(`${tmux.name}:${second.paneId}`).toBe(id);
    const after = await untilPane(bridge.hub, 'the new session in the same pane id', idleHere(before.token), 90_000);
    expect(after.address).not.toBe(before.address);
    await page.locator('.composer-send:not([disabled])').waitFor();
    expect(await box.inputValue()).toBe('Stop and report what you changed.');

    // Send as message: the old session's token goes with it, so the bridge refuses it and types nothing.
    await sendAsMessage(page);
    const line = page.locator('.composer .wk-receipt-text');
    await line.waitFor();
    const bare = before.address.slice(0, before.address.lastIndexOf('#'));
    expect(await line.textContent()).toBe(`Message to ${bare}: not sent: pane replaced`);
    expect(await box.inputValue()).toBe('Stop and report what you changed.');
    await page.screenshot({ path: artifactPath('web/walky-send-replaced.png') });
    const log = (await (await fetch(`${bridge.url}/api/walky/messages`, { headers: device.headers })).json()) as { messages: { id: string; state: string; reason: string | null; asked: string }[] };
    expect(log.messages.find((m) => m.reason === 'pane replaced')).toMatchObject({ state: 'refused', asked: before.address });
    expect(api.requests.some((r) => r.kind === 'main' && r.prompt.includes('from operator (phone-altan)'))).toBe(false);

    // The person has seen the refusal and the new session: the next press goes to the session on screen now.
    await sendAsMessage(page);
    await page.waitForFunction(() => document.querySelector('.composer .wk-receipt-text')?.textContent?.endsWith('typed into the pane'), undefined, { timeout: 60_000 });
    const q = await api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes('from operator (phone-altan)'), 60_000);
    expect(q.prompt).toContain('Stop and report what you changed.');
    expect(api.requests.filter((r) => r.kind === 'main' && r.prompt.includes('from operator (phone-altan)'))).toHaveLength(1);
  }, 300_000);
});
