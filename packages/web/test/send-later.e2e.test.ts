import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startBridge } from '@collie/bridge';
import { momentWords, type SendReceipt } from '@collie/protocol';
import { artifactPath, startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { untilPane, webRoot } from './e2e-setup';
import { openPhone, webWork } from './phone-rig';

const captures = join(webRoot, '..', 'bridge', 'src', 'harness', 'codex', 'captures');
const fakeCodex = join(webRoot, '..', 'testkit', 'fake-agent', 'codex');
/** The phone's zone, not the bridge's: the receipt's time is shown on the phone's clock. */
const ZONE = 'Asia/Tokyo';
/** The time as the phone in ZONE shows it: `00:22`, or `Sun 00:22` once it falls on the phone's next day. */
const clock = (iso: string) => momentWords(iso, Date.now(), ZONE);

/** A long press of the composer's Send, then "Send later…". */
async function sendLater(page: Page): Promise<void> {
  await page.locator('.composer-send').hover();
  await page.mouse.down();
  await page.locator('.wk-offer').waitFor();
  await page.mouse.up();
  await page.getByRole('menuitem', { name: 'Send later…' }).click();
  await page.getByRole('group', { name: 'Send later' }).waitFor();
}

describe('Send later… from the composer long-press menu (390×844, issue 29)', () => {
  it('schedules in N hours, shows "scheduled for HH:MM" on the phone clock with Cancel; when the limit resets only with a reset time', async () => {
    await using work = await webWork('collie-send-later-');
    const { dist } = work;
    const fifo = join(work.path, 'screen.fifo');
    await promisify(execFile)('mkfifo', [fifo]);
    await using tmux = await startTmux();
    const paneId = await tmux.newSession('later', { cmd: [process.execPath, fakeCodex, 'fresh-idle'], env: { COLLIE_FAKE_FIFO: fifo, COLLIE_FAKE_SCREENS: captures }, width: 120, height: 40 });
    await using state = await tempDir('collie-state-');
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
    const pane = await untilPane(bridge.hub, 'the idle Codex pane', (p) => p.tmuxId === paneId && p.harness === 'codex' && p.dialog === null && p.state === 'idle', 30_000);
    const receiptOf = (text: string): SendReceipt | undefined => bridge.hub.snapshot().sends.find((r) => r.summary === text);

    await using phone = await openPhone(bridge, state.path, { timeout: 20_000, timezoneId: ZONE });
    const { page } = phone;
    await page.goto(`/#/pane/${encodeURIComponent(pane.id)}`);
    const box = page.getByLabel('Text to send to the pane');

    await box.fill('run the nightly checks');
    await sendLater(page);
    // This pane has no known reset time: the choice is not offered.
    expect(await page.getByRole('button', { name: /When the limit resets/ }).count()).toBe(0);
    await page.locator('#send-later-in').fill('2');
    const before = Date.now();
    await page.getByRole('group', { name: 'Send later' }).getByRole('button', { name: 'Schedule' }).nth(1).click();
    const status = page.locator('.composer-status');
    await status.getByText(/^scheduled for (\w{3} )?\d\d:\d\d$/).waitFor();
    const r = receiptOf('run the nightly checks')!;
    expect(r).toMatchObject({ state: 'scheduled', final: false });
    const due = Date.parse(r.scheduledFor!);
    expect(due - before).toBeGreaterThanOrEqual(2 * 3_600_000 - 1000);
    expect(due - before).toBeLessThan(2 * 3_600_000 + 10_000);
    expect(await status.locator('.status-words').innerText()).toBe(`scheduled for ${clock(r.scheduledFor!)}`);
    expect(await box.inputValue()).toBe('');
    const item = page.locator('.send').filter({ hasText: 'run the nightly checks' });
    await item.getByText(`scheduled for ${clock(r.scheduledFor!)}`).waitFor();
    expect(await item.getByRole('button', { name: 'Cancel' }).isVisible()).toBe(true);
    await page.screenshot({ path: artifactPath('web/send-later-scheduled.png') });

    await status.getByRole('button', { name: 'Cancel' }).click();
    await status.getByText('not sent: cancelled').waitFor();
    expect(receiptOf('run the nightly checks')).toMatchObject({ state: 'not_sent', outcome: 'not sent: cancelled', final: true });

    // The pane's usage limit, set through the door the transcripts' usage readers use (it stays on the
    // pane across the tracker's updates): now "when the limit resets" is offered.
    const resetsAt = new Date(Date.now() + 3 * 3_600_000).toISOString();
    bridge.hub.setUsage(pane.id, { source: 'transcript', at: Date.now(), limit: { state: 'reached', resetsAt, source: 'transcript' } });
    await box.fill('continue where you stopped');
    await sendLater(page);
    await page.getByRole('button', { name: `When the limit resets (${clock(resetsAt)})` }).waitFor();
    await page.screenshot({ path: artifactPath('web/send-later-menu.png') });
    await page.getByRole('button', { name: `When the limit resets (${clock(resetsAt)})` }).click();
    await status.getByText(`scheduled for ${clock(resetsAt)}, when the limit resets`).waitFor();
    expect(receiptOf('continue where you stopped')).toMatchObject({ state: 'scheduled', waitsFor: 'limit-reset', scheduledFor: resetsAt });
    expect(bridge.waitsForReset(pane.id)).toBe(true);
    await page.screenshot({ path: artifactPath('web/send-later-limit-reset.png') });
  }, 120_000);
});
