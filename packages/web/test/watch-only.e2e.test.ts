import { join } from 'node:path';
import { MAY_NOT_SEND_WORDS } from '@collie/protocol';
import { artifactPath, crewBridge, crewCli, freePort, launchChromium, phoneContext, startTmux, tempDir, testDevice } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { devicesCommand } from '../../bridge/src/commands/devices';
import { fakePane } from '../../bridge/test/walky/fake-pane';
import { axeBoth, buildWeb, untilPane, openPaneMenu } from './e2e-setup';

describe('a watch-only device on the phone at 390×844', () => {
  it("the Crew page's Message all sheet, a pane page with an open question and the Devices page say 'This device may not send messages.'; given the right back, the composer returns", async () => {
    await using work = await tempDir('collie-web-watch-');
    const dist = join(work.path, 'dist');
    await buildWeb(dist);
    await using tmux = await startTmux();
    await using state = await tempDir('collie-state-');
    const pane = await fakePane(tmux, state.path, 'api', 'permission-edit');
    await tmux.newSession('shell', { cmd: ['sh'] });
    const watcher = await testDevice(state.path, 'wall screen', { watchOnly: true });
    await using bridge = await crewBridge(tmux.tmpDir, state.path, 'bluefin', { webDir: dist });
    expect((await crewCli(state.path, ['create', '--name', 'bluefin', '--listen', `127.0.0.1:${await freePort()}`])).code).toBe(0);
    await bridge.crew.reload();
    const id = `${tmux.name}:${pane.paneId}`;
    await untilPane(bridge.hub, 'the asking pane', (p) => p.id === id && p.state === 'blocked' && p.card !== null, 60_000);

    await using browser = await launchChromium();
    await using context = await phoneContext(browser, { baseURL: bridge.url });
    await context.addCookies([watcher.cookie(bridge.url)]);
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);

    // The Crew page: the crew reads as ever, with no Invite (a change of the machine); Message all agents opens; its Send message stays disabled, the sentence under it.
    await page.goto('/#/crew');
    await page.getByRole('button', { name: 'Message all agents' }).click();
    expect(await page.getByRole('button', { name: 'Invite a machine' }).count()).toBe(0);
    const sheet = page.getByRole('dialog', { name: 'Message all agents' });
    await sheet.getByLabel('Message to every agent').fill('Wrap up for today.');
    const sendMessage = sheet.getByRole('button', { name: 'Send message' });
    expect(await sendMessage.isDisabled()).toBe(true);
    const line = sheet.locator('.may-not-send');
    expect(await line.textContent()).toBe(MAY_NOT_SEND_WORDS);
    // Under the button: below it on screen, in the same sheet.
    const [button, words] = [await sendMessage.boundingBox(), await line.boundingBox()];
    expect(words!.y).toBeGreaterThanOrEqual(button!.y + button!.height);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.screenshot({ path: artifactPath('web/watch-only-message-all.png') });
    await axeBoth(page, '.wk-sheet');
    await sheet.getByRole('button', { name: 'Close' }).click();

    // A pane page with an open question: the card reads in full, the sentence stands in for its
    // answers and for the composer; no text box, no Send, no Keys.
    await page.goto(`/#/pane/${encodeURIComponent(id)}`);
    const card = page.locator('.card').first();
    await card.waitFor();
    expect(await card.locator('.may-not-send').textContent()).toBe(MAY_NOT_SEND_WORDS);
    expect(await card.locator('.options button, .card-submit').count()).toBe(0);
    expect(await page.locator('.dock .may-not-send').textContent()).toBe(MAY_NOT_SEND_WORDS);
    expect(await page.locator('.dock textarea').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Send' }).count()).toBe(0);
    // Rename and Close change the machine: not offered; Changes and Files read, and stay.
    await openPaneMenu(page);
    expect(await page.locator('.workbench-links button').count()).toBe(0);
    expect(await page.locator('.workbench-links a').count()).toBe(2);
    // Text nodes only: the words are the text of the element, no markup inside it.
    expect(await page.locator('.may-not-send').first().innerHTML()).toBe(MAY_NOT_SEND_WORDS);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: artifactPath('web/watch-only-pane.png') });
    await axeBoth(page, '.card');
    await axeBoth(page, '.dock');

    // The Devices page: this device's right in words; it may remove itself and change nothing else.
    await page.goto('/#/devices');
    const row = page.locator('[data-device="wall screen"]');
    await row.waitFor();
    expect(await row.locator('.device-meta').textContent()).toContain('Watch only');
    expect(await page.getByRole('button', { name: 'Rename' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Allow sending' }).count()).toBe(0);
    expect(await row.getByRole('button', { name: 'Remove' }).count()).toBe(1);
    await page.screenshot({ path: artifactPath('web/watch-only-devices.png') });
    await axeBoth(page, 'main');

    // Given the right back on the machine, the open page reconnects, reads it, and the composer is there.
    await page.goto(`/#/pane/${encodeURIComponent(id)}`);
    await page.locator('.dock .may-not-send').waitFor();
    const set = await devicesCommand(state.path, { op: 'set', name: 'wall screen', maySend: true }, { url: '', publicUrl: null });
    expect(set).toMatchObject({ bridge: true, reply: { type: 'set', changed: true } });
    await page.locator('.dock textarea').waitFor();
    expect(await page.locator('.may-not-send').count()).toBe(0);
    expect(await page.locator('.card .options button').count()).toBeGreaterThan(0);
    await openPaneMenu(page);
    expect(await page.getByRole('button', { name: 'Rename' }).count()).toBe(1);

    // Now a device that may send: on the Devices page it makes the other device watch-only, and back.
    await page.goto('/#/devices');
    const other = page.locator('[data-device="test"]');
    await other.getByRole('button', { name: 'Make watch-only' }).click();
    await other.getByRole('button', { name: 'Allow sending' }).waitFor();
    expect(await other.locator('.device-meta').textContent()).toContain('Watch only');
    expect(bridge.devices.find('test')?.maySend).toBe(false);
    // It keeps its own right: no button to take it away from itself.
    expect(await page.locator('[data-device="wall screen"]').getByRole('button', { name: 'Make watch-only' }).count()).toBe(0);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.screenshot({ path: artifactPath('web/devices-rights.png') });
    await axeBoth(page, 'main');
    for (const b of await page.locator('.device-button').all()) expect((await b.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await other.getByRole('button', { name: 'Allow sending' }).click();
    await other.getByRole('button', { name: 'Make watch-only' }).waitFor();
    expect(bridge.devices.find('test')?.maySend).toBe(true);
  }, 300_000);
});
