import { askUserQuestion, bashPermission, longTurn, plainReply } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { showTerminal, untilPane } from './e2e-setup';
import { holdEvents } from './hold-events';
import { claudePhone, shot } from './phone-rig';

/**
 * The pane page acting on the real Claude Code TUI (offline, against the scripted Messages
 * API) through a real bridge, on a phone-sized Chromium: the composer, the dialog card, the
 * keys pad, and the receipts that follow each of them live.
 */
describe('acting on a real Claude Code pane from the phone', () => {
  it('sends from the composer, answers a permission card and a question wizard, and stops a turn from the keys pad', async () => {
    await using rig = await claudePhone('collie-actions-e2e-', { claude: { width: 100, height: 40 }, readyMs: 30_000, phone: { timeout: 15_000, scheme: 'dark', console: true } });
    const { api, claude, tmux, bridge, id, page } = rig;
    const { problems } = rig.phone;
    const pane = () => bridge.hub.panes.get(id);
    const idle = () => rig.idle(30_000);
    const gate = await holdEvents(page);

    await rig.phone.openPane(id);
    await showTerminal(page);

    const box = page.getByLabel('Text to send to the pane');
    const send = page.getByRole('button', { name: 'Send', exact: true });
    const composerStatus = page.locator('.composer-status .status-words');
    const card = page.locator('.card');
    const answerStatus = page.locator('.ask-status .status-words');
    const option = (label: string) => card.locator('.option', { hasText: label });
    const sendFromComposer = async (text: string) => {
      await box.fill(text);
      await send.click();
      await expect.poll(() => composerStatus.textContent(), { timeout: 20_000 }).toBe('typed into the pane');
      expect(await box.inputValue()).toBe('');
    };

    // The composer: the text reaches the agent, the receipt follows, the box empties.
    api.script(plainReply('Hello from the scripted API.'));
    await sendFromComposer('hello from the phone');
    await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'hello from the phone');
    await page.locator('.term', { hasText: 'Hello from the scripted API.' }).waitFor();
    await page.locator('.sends .send', { hasText: 'hello from the phone' }).locator('.send-outcome', { hasText: 'typed into the pane' }).waitFor();
    await shot(page, 'actions-composer-typed');
    await idle();

    // A permission card: shown above the mirror, answered with one tap.
    api.script(bashPermission('touch made-by-the-card'));
    await sendFromComposer('run the command');
    const blocked = await untilPane(bridge.hub, 'the permission card', (p) => p.id === id && p.card !== null && p.card.kind === 'permission', 30_000);
    await option('Yes').first().waitFor();
    // The person was down at the mirror and the composer: the new ask comes into view by itself.
    await expect.poll(() => card.evaluate((el) => el.getBoundingClientRect().top >= 56 && el.getBoundingClientRect().top < innerHeight / 2)).toBe(true);
    await expect(card.locator('.card-question').textContent()).resolves.toBe(blocked.card!.question);
    for (const [i, o] of blocked.card!.options.entries()) {
      const button = card.locator('.option').nth(i);
      expect(await button.isDisabled(), `option ${o.n} ${o.label}`).toBe(o.freeText);
    }
    expect(await card.locator('.option-hint').allTextContents()).toEqual(
      blocked.card!.options.filter((o) => o.freeText).map(() => 'answer this one in the terminal for now'),
    );
    await shot(page, 'actions-card-permission');
    await page.emulateMedia({ colorScheme: 'light' });
    await shot(page, 'actions-card-permission-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await card.locator('.option').first().click();
    // Issue 17: the answer is said in words where the card was.
    await page.locator('.answered', { hasText: 'Allowed once: touch made-by-the-card' }).waitFor();
    await api.waitForRequest((q) => q.kind === 'main' && q.toolResults.some((t) => !t.isError), 20_000);
    await card.waitFor({ state: 'detached' });
    await idle();

    // A two-question wizard, one of them multi-select; and a tap on an ask that changed meanwhile.
    api.script(
      askUserQuestion([
        { question: 'Which color?', header: 'Color', options: [{ label: 'Red', description: 'warm' }, { label: 'Blue', description: 'cool' }] },
        {
          question: 'Which toppings?',
          header: 'Toppings',
          multiSelect: true,
          options: [{ label: 'Cheese', description: 'melted' }, { label: 'Olives', description: 'sliced' }, { label: 'Basil', description: 'fresh' }],
        },
      ]),
    );
    await sendFromComposer('ask me two things');
    await card.locator('.card-question', { hasText: 'Which color?' }).waitFor({ timeout: 30_000 });
    expect(await card.locator('.step-label').allTextContents()).toEqual(expect.arrayContaining(['Color', 'Toppings']));
    await expect(card.locator('.step-active .step-label').textContent()).resolves.toBe('Color');
    await shot(page, 'actions-card-wizard');

    // The page stops hearing about the pane while the terminal moves on to the next question:
    // the tap on the stale card must press nothing and say so.
    const colorCard = pane()!.card!;
    gate.hold();
    await tmux.sendKeys(claude.paneId, 'Right');
    await untilPane(bridge.hub, 'the second question', (p) => p.id === id && p.card !== null && p.card.signature !== colorCard.signature);
    await option('Blue').click();
    await expect.poll(() => answerStatus.textContent()).toBe('This ask changed. Read it again, then tap an answer.');
    await shot(page, 'actions-ask-changed');
    gate.release();
    await card.locator('.card-question', { hasText: 'Which toppings?' }).waitFor();
    // Back to the first question from the keys pad, then answer it with a tap.
    await page.getByRole('button', { name: 'Keys' }).click();
    await page.getByRole('button', { name: 'Left', exact: true }).click();
    await card.locator('.card-question', { hasText: 'Which color?' }).waitFor();
    await page.getByRole('button', { name: 'Keys' }).click();
    await option('Blue').click();
    await card.locator('.card-question', { hasText: 'Which toppings?' }).waitFor();
    await card.locator('.option-check', { hasText: 'Cheese' }).click();
    await card.locator('.option-check', { hasText: 'Basil' }).click();
    await shot(page, 'actions-card-multiselect');
    await card.getByRole('button', { name: 'Submit', exact: true }).click();
    const review = await untilPane(bridge.hub, 'the review', (p) => p.id === id && p.card !== null && p.card.kind === 'review', 20_000);
    await option(review.card!.options[0]!.label).waitFor();
    await shot(page, 'actions-card-review');
    // The review lists what the ticks chose: read it before submitting, as a person would.
    expect(await card.locator('.card-body').textContent(), 'the ticks sent with Submit reached the dialog').toMatch(/Cheese, Basil/);
    await option(review.card!.options[0]!.label).click();
    const answered = await api.waitForRequest((q) => q.kind === 'main' && q.toolResults.some((t) => t.text.includes('Which color?')), 20_000);
    const answers = answered.toolResults[0]!.text;
    expect(answers).toMatch(/Blue/);
    expect(answers).not.toMatch(/Red/);
    expect(answers).toMatch(/Cheese/);
    expect(answers).toMatch(/Basil/);
    expect(answers).not.toMatch(/Olives/);
    await idle();

    // The keys pad: Stop ends a running turn.
    api.script(longTurn(60_000, 'This turn takes a minute.'));
    await sendFromComposer('take your time');
    await untilPane(bridge.hub, 'the long turn', (p) => p.id === id && p.state === 'working', 20_000);
    await page.getByRole('button', { name: 'Keys' }).click();
    await page.locator('.keys').waitFor();
    await shot(page, 'actions-keys-pad');
    await page.getByRole('button', { name: 'Stop: end the running turn' }).click();
    await expect.poll(() => page.locator('.keys-status .status-words').textContent()).toBe('Stop: pressed');
    await untilPane(bridge.hub, 'the turn stopped', (p) => p.id === id && p.state !== 'working', 15_000);
    const turn = await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'take your time');
    await expect.poll(() => turn.aborted, { timeout: 10_000 }).toBe(true);
    await shot(page, 'actions-stopped');

    // The Terminal view's Recent sends (the Chat carries each on its bubble), newest first, each with its outcome; the pad folds away to read them.
    const recent = await page.locator('.sends .send .send-summary').allTextContents();
    expect(recent[0]).toBe('Stop');
    expect(await page.locator('.sends .send').first().locator('.send-outcome').textContent()).toBe('pressed');
    await page.getByRole('button', { name: 'Keys' }).click();
    await page.locator('.keys').waitFor({ state: 'detached' });
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await shot(page, 'actions-recent-sends');

    // The pane goes away: the composer says why it cannot send.
    await claude.kill();
    await page.getByText('This pane is gone: there is nothing to send to.').waitFor();
    expect(await box.isDisabled()).toBe(true);
    await shot(page, 'actions-pane-gone');
    expect(problems).toEqual([]);
  }, 240_000);
});
