import { join } from 'node:path';
import { startBridge } from '@collie/bridge';
import { artifactPath, plainReply, startClaude, startMessagesApi, startTmux, tempDir, testBridgeOptions, testDevice } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { fakePane } from '../../bridge/test/walky/fake-pane';
import { walkyEnv } from '../../bridge/test/walky/kit';
import { axeBoth, buildWeb, showTerminal, untilPane, openPaneMenu } from './e2e-setup';
import { openPhone } from './phone-rig';

describe('walky talky on the phone at 390×844 (issue 7)', () => {
  it('shows a message as a card, the Messages sheet with Reply, Send as message to its final word, id chips, and Message all agents', async () => {
    await using work = await tempDir('collie-web-walky-');
    const dist = join(work.path, 'dist');
    await buildWeb(dist);
    await using tmux = await startTmux();
    await using api = await startMessagesApi({ fallback: plainReply('Noted.') });
    await using state = await tempDir('collie-state-');
    const sender = await fakePane(tmux, state.path, 'sender', 'fresh-idle', walkyEnv(state.path));
    await using claude = await startClaude(tmux, api, { session: 'target' });
    await tmux.newSession('shell', { cmd: ['sh'] });
    const device = await testDevice(state.path, 'phone-altan');
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
    const id = `${tmux.name}:${claude.paneId}`;
    const T = await untilPane(bridge.hub, 'the idle Claude pane', (p) => p.id === id && p.harness === 'claude' && (p.state === 'idle' || p.state === 'done') && p.draft === null, 60_000);
    await untilPane(bridge.hub, 'the sender', (p) => p.tmuxId === sender.paneId && p.harness === 'claude', 60_000);
    const bare = T.address.slice(0, T.address.lastIndexOf('#'));

    // An agent's message reaches the Claude pane: its header is on screen, the card shows the body from the log.
    const sent = await sender.collie(['walky', 'send', T.address, 'Tests are green on fix-465. You can merge.']);
    expect(sent.code).toBe(0);
    const agentId = sent.out.split('\n')[0]!;
    await api.waitForRequest((q) => q.kind === 'main' && q.prompt.includes(`[walky-talky ${agentId}]`), 60_000);

    await using phone = await openPhone(bridge, device, { timeout: 30_000 });
    const { page } = phone;
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`/#/pane/${encodeURIComponent(id)}`);
    // The pane opens on its Chat: the message's card at its time, in the place of the transcript's header item;
    // the cards under the screen are for the Terminal view, so it is not drawn twice.
    const chatCard = page.locator(`.pane-chat .wk-card[data-message="${agentId}"]`);
    await chatCard.waitFor({ timeout: 60_000 });
    expect(await chatCard.locator('.wk-card-title').textContent()).toMatch(/^Message from \S/);
    expect(await chatCard.locator('.wk-kind').textContent()).toBe('agent');
    expect(await chatCard.locator('.wk-card-body').textContent()).toBe('Tests are green on fix-465. You can merge.');
    expect(await page.locator('.pane-chat .chat-item', { hasText: `[walky-talky ${agentId}]` }).count()).toBe(0);
    await chatCard.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifactPath('web/walky-chat-card.png') });
    await axeBoth(page, '.pane-chat');

    await page.locator(`.wk-pane .wk-card[data-message="${agentId}"]`).waitFor({ state: 'attached' });
    expect(await page.locator(`.wk-pane .wk-card[data-message="${agentId}"]`).isVisible()).toBe(false);

    // In the Terminal view the same card shows under the screen, for the header on it.
    await showTerminal(page);
    const card = page.locator(`.wk-pane .wk-card[data-message="${agentId}"]`);
    await card.waitFor();
    expect(await card.locator('.wk-card-title').textContent()).toMatch(/^Message from \S/);
    expect(await card.locator('.wk-kind').textContent()).toBe('agent');
    expect(await card.locator('.wk-known').textContent()).toBe('this machine');
    expect(await card.locator('.wk-card-body').textContent()).toBe('Tests are green on fix-465. You can merge.');
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifactPath('web/walky-card.png') });

    // The terminal view marks the header row, the row printing an id the log holds.
    const headerRow = page.locator(`.term .term-wk-row[data-message="${agentId}"]`).first();
    await headerRow.waitFor({ timeout: 60_000 });
    expect(await headerRow.textContent()).toContain(`[walky-talky ${agentId}]`);
    expect(await page.locator('.term .term-wk-row').evaluateAll((rows) => rows.every((r) => /wt_[a-z0-9]{12}/.test(r.textContent ?? '')))).toBe(true);
    await headerRow.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifactPath('web/walky-terminal-row.png') });
    await axeBoth(page, '.wk-pane');

    // The card opens the Messages sheet on that message, marked, with Reply beside it.
    await card.click();
    const sheet = page.getByRole('dialog', { name: 'Messages' });
    await sheet.waitFor();
    const row = sheet.locator(`[data-row="${agentId}"]`);
    expect(await row.locator('.wk-card').getAttribute('class')).toContain('wk-marked');
    await row.getByRole('button', { name: 'Reply' }).click();
    await row.getByRole('textbox').fill('Merge it, thanks.');
    await page.screenshot({ path: artifactPath('web/walky-sheet.png') });
    await row.getByRole('button', { name: 'Send reply' }).click();
    const replyLine = row.locator('.wk-receipt-text');
    await replyLine.waitFor();
    expect(await replyLine.textContent()).toMatch(/^Message to local\/\S+: /);
    const replyId = (await sheet.evaluate(() => fetch('/api/walky/messages').then((r) => r.json()) as Promise<{ messages: { id: string; replyTo: string | null }[] }>)).messages.find((m) => m.replyTo === agentId)!.id;
    await sheet.getByRole('button', { name: 'Close' }).click();
    await sheet.waitFor({ state: 'detached' });

    // The sheet from the pane's menu: newest first, received and sent.
    await openPaneMenu(page);
    await page.getByRole('button', { name: 'Messages' }).click();
    await sheet.waitFor();
    expect(await sheet.locator('[data-row]').count()).toBeGreaterThanOrEqual(1);
    await sheet.getByRole('button', { name: 'Close' }).click();

    // Send as message: a long press of Send offers it; the line follows the receipt to its final word.
    api.script(plainReply(`Understood. The reply went out as ${replyId}.`));
    await page.getByLabel('Text to send to the pane').fill('Stop and report what you changed.');
    const sendButton = page.locator('.composer-send');
    await sendButton.hover();
    await page.mouse.down();
    await page.locator('.wk-offer').waitFor();
    await page.mouse.up();
    await page.getByRole('menuitem', { name: 'Send as message' }).click();
    const line = page.locator('.composer .wk-receipt-text');
    await line.waitFor();
    expect(await line.textContent()).toMatch(new RegExp(`^Message to ${bare.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (queued|typed into the pane)$`));
    const q = await api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes('from operator (phone-altan)'), 60_000);
    expect(q.prompt).toContain('Stop and report what you changed.');
    await page.waitForFunction(() => document.querySelector('.composer .wk-receipt-text')?.textContent?.endsWith('typed into the pane'), undefined, { timeout: 60_000 });
    expect(await page.getByLabel('Text to send to the pane').inputValue()).toBe('');
    await page.screenshot({ path: artifactPath('web/walky-send-as-message.png') });
    await page.locator('.composer').getByRole('button', { name: 'Dismiss' }).click();
    await line.waitFor({ state: 'detached' });

    // An id the log holds in the pane's text becomes a chip that opens the sheet on it.
    // (In the Terminal view: the chips under the screen. The Chat, hidden now, has its own chip in the agent's reply.)
    const chip = page.locator('.wk-pane .wk-chip', { hasText: replyId });
    await chip.waitFor({ timeout: 60_000 });
    await chip.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifactPath('web/walky-chip.png') });
    await chip.click();
    await sheet.locator(`[data-row="${replyId}"].wk-marked`).waitFor();
    await sheet.getByRole('button', { name: 'Close' }).click();

    // Message all agents, from the dashboard: the count to confirm, one receipt per target, the shell skipped.
    await page.goto('/#/');
    await page.getByRole('button', { name: 'Message all agents' }).click();
    const all = page.getByRole('dialog', { name: 'Message all agents' });
    await all.getByLabel('Message to every agent').fill('Wrap up for today.');
    await all.getByLabel('Send to').selectOption('all');
    await all.getByRole('button', { name: 'Send message' }).click();
    expect(await all.locator('.wk-confirm').textContent()).toBe('Message 2 agents on 1 machine?');
    // Issue 27: the confirmation names its recipients, by the labels the dashboard shows.
    const labels = [...bridge.hub.panes.values()].filter((p) => p.harness !== 'shell').sort((a, b) => a.address.localeCompare(b.address, 'en', { numeric: true })).map((p) => p.label);
    expect(await all.getByRole('list', { name: 'Recipients' }).locator('li').allTextContents()).toEqual(labels);
    await page.screenshot({ path: artifactPath('web/walky-all-confirm.png') });
    await all.getByRole('button', { name: 'Send', exact: true }).click();
    await all.getByRole('heading', { name: 'Agents reached' }).waitFor();
    expect(await all.locator('.wk-receipts').first().locator('li').count()).toBe(3);
    // Each receipt names its pane by label, never by address.
    const lines = await all.locator('.wk-receipts').first().locator('li:not(.wk-every)').allTextContents();
    expect(lines.map((l) => l.slice(0, l.lastIndexOf(': '))).sort()).toEqual([...labels].sort());
    for (const l of lines) expect(l).not.toMatch(/%\d|local\//);
    expect(await all.locator('.wk-muted li').allTextContents()).toEqual([...bridge.hub.panes.values()].filter((p) => p.harness === 'shell').map((p) => p.label));
    expect(await all.locator('.wk-every').textContent()).toBe('every machine: 2 messages');
    expect(await all.getByRole('heading', { name: 'Shell panes skipped' }).count()).toBe(1);
    await page.screenshot({ path: artifactPath('web/walky-all-sent.png') });
  }, 300_000);
});
