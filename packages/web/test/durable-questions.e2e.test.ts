import { conversationKey } from '@collie/protocol';
import { artifactPath, tempDir, type TempDir } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Asker, HOUR } from './durable-asker';
import { durableRig, sock, untilDurable, type DurableRig } from './durable-rig';

/**
 * The page's question tables at 390×844: every kind of card, what the card says after each tap
 * outcome (with "Try again" resending the same request id), and the receipts, against a
 * scripted durable agent built on the SDK through the real bridge.
 */
describe('durable agents: question cards on the phone (390×844)', () => {
  let work: TempDir;
  let rig: DurableRig;
  let page: Page;
  const agent = new Asker();
  let closeAgent: () => Promise<void>;
  const open = async (id: string) => {
    await page.goto(`/#/durable/asker/${id}`);
    await page.locator('.durable-header').waitFor();
  };
  const card = (id: string) => page.locator(`.durable-card[data-question="${id}"]`);

  beforeAll(async () => {
    work = await tempDir('collie-durable-q-');
    const toolCall = (c: string) => agent.conversations.get(c)!.tool('write_file', 'notes/today.md');
    agent.open({ id: 'kinds', title: 'Every kind', workspace: '~/kinds' });
    const t = toolCall('kinds');
    const perm = [
      { id: 'yes', action: 'allow', label: 'Yes, write it' },
      { id: 'always', action: 'always', label: 'Always for notes/' },
      { id: 'no', action: 'deny', label: 'No, leave it' },
      { id: 'stop', action: 'cancel', label: 'Stop asking' },
    ] as const;
    agent.ask('kinds', { id: 'perm', kind: 'permission', title: 'Write notes/today.md?', body: '3 lines: the plan.', toolCall: { id: t.callId, name: 'write_file' }, options: [...perm], expiresInMs: 2 * HOUR + 10 * 60_000 });
    agent.ask('kinds', { id: 'one', kind: 'choice', title: 'Which branch?', options: [{ id: 'main', label: 'main' }, { id: 'dev', label: 'dev' }] });
    agent.ask('kinds', { id: 'many', kind: 'choice', multiple: true, title: 'Which of these today?', options: [{ id: 'mail', label: 'Answer mail' }, { id: 'review', label: 'Review the pull request' }, { id: 'walk', label: 'A walk' }] });
    agent.ask('kinds', { id: 'text', kind: 'text', title: 'A new name?', placeholder: 'Name' });
    agent.ask('kinds', {
      id: 'form',
      kind: 'form',
      title: 'File a ticket',
      fields: [
        { kind: 'text', id: 'summary', label: 'Summary', required: true },
        { kind: 'choice', id: 'team', label: 'Team', options: [{ id: 'web', label: 'Web' }, { id: 'infra', label: 'Infra' }] },
        { kind: 'toggle', id: 'urgent', label: 'Urgent' },
      ],
    });
    agent.ask('kinds', { id: 'long', kind: 'permission', title: `Run ${'a-very-long-argument '.repeat(20)}?`, toolCall: { id: t.callId, name: 'write_file' }, options: [...perm] });

    agent.open({ id: 'taps', title: 'After a tap' });
    agent.ask('taps', { id: 'decided', kind: 'choice', title: 'Decide first?', options: [{ id: 'a', label: 'A' }] });
    agent.ask('taps', { id: 'timed', kind: 'choice', title: 'Late?', options: [{ id: 'a', label: 'A' }], expiresInMs: 2 * HOUR - 60_000 });
    agent.ask('taps', { id: 'already', kind: 'choice', title: 'Answered elsewhere?', options: [{ id: 'a', label: 'A' }] });
    agent.ask('taps', { id: 'notopen', kind: 'choice', title: 'Forgotten?', options: [{ id: 'a', label: 'A' }] });
    agent.ask('taps', { id: 'refused', kind: 'choice', title: 'Refused?', options: [{ id: 'a', label: 'A' }], check: () => 'asker takes no answers on Sundays.' });
    agent.open({ id: 'retries', title: 'Retries' });
    agent.ask('retries', { id: 'changed', kind: 'choice', title: 'Deploy?', options: [{ id: 'a', label: 'A' }] });
    agent.ask('retries', { id: 'unsure', kind: 'choice', title: 'Lost on the way?', options: [{ id: 'a', label: 'A' }] });
    agent.ask('retries', { id: 'maybe', kind: 'choice', title: 'Lost, then changed?', options: [{ id: 'a', label: 'A' }] });
    agent.ask('retries', { id: 'notool', kind: 'permission', title: 'Names no tool', options: [{ id: 'y', action: 'allow', label: 'Yes' }, { id: 'al', action: 'always', label: 'Always' }, { id: 'n', action: 'deny', label: 'No' }] });

    const c = agent.open({ id: 'receipts', title: 'Receipts' });
    c.startTurn();
    agent.ask('receipts', { id: 'r-decide', kind: 'choice', title: 'Left to the agent', options: [{ id: 'a', label: 'A' }] });
    agent.ask('receipts', { id: 'r-stop', kind: 'choice', title: 'Stopped with the turn', options: [{ id: 'a', label: 'A' }] });

    const listening = await agent.serveOn(sock(work.path, 'asker'));
    closeAgent = () => listening.close();
    rig = await durableRig(work.path, [{ name: 'asker', address: listening.address }]);
    page = rig.page;
    await untilDurable(rig.bridge.hub, 'the asker conversations', (d) => d.conversations.get(conversationKey('asker', 'receipts'))?.questions.length === 2);
    // A kind this Collie does not know, straight onto the wire once the bridge follows the stream.
    agent.log.push({ type: 'question.asked', conversationId: 'kinds', question: { kind: 'poll', id: 'poll', title: 'Vote on the lunch place', body: 'Three places, one vote each.', at: Date.now() } });
    await untilDurable(rig.bridge.hub, 'the unknown kind', (d) => d.conversations.get(conversationKey('asker', 'kinds'))?.questions.length === 7);
  }, 180_000);

  afterAll(async () => {
    await rig?.[Symbol.asyncDispose]();
    for (const a of agent.asks.values()) a.cancel('closed');
    await closeAgent?.();
    await work?.[Symbol.asyncDispose]();
  });

  it('every kind: permission in Collie words, choice, pick any number, text count, form with Required, shortened, unknown, first 5 then Show N more', async () => {
    // The phone's clock is the test's to move: the countdown is checked at 4 min, 40 s and past.
    const expiresAt = rig.bridge.hub.durable.conversations.get(conversationKey('asker', 'kinds'))!.questions.find((x) => x.id === 'perm')!.expiresAt!;
    await page.clock.install();
    await open('kinds');
    const perm = card('perm');
    await perm.waitFor();
    expect(await perm.locator('.card-caption').textContent()).toBe('Needs your answer · asker');
    const phoneNow = () => page.evaluate(() => Date.now());
    await page.clock.fastForward(expiresAt - 240_000 - 500 - (await phoneNow()));
    await expect.poll(() => perm.locator('.card-expiry').textContent()).toBe('Expires in 4 min');
    expect(await perm.locator('.option-words').allTextContents()).toEqual(['Allow', 'Always allow', 'Deny', 'Cancel']);
    expect(await perm.locator('.option-quiet').allTextContents()).toEqual(['Yes, write it', 'Always for notes/', 'No, leave it', 'Stop asking']);
    // Under the tool call it is about.
    expect(await page.locator('.chat-tool + .durable-card').first().getAttribute('data-question')).toBe('perm');
    expect(await page.locator('.durable-card').count()).toBe(5);
    await page.getByRole('button', { name: 'Show 2 more' }).waitFor();
    await page.screenshot({ path: artifactPath('web/durable-q-kinds.png'), fullPage: true });

    // The countdown: 4 min, whole minutes down to 1 min at 61 s, then seconds under a minute, then Expired; the buttons stay.
    await page.clock.fastForward(expiresAt - 61_000 - (await phoneNow()));
    await expect.poll(() => perm.locator('.card-expiry').textContent()).toBe('Expires in 1 min');
    await page.clock.fastForward(expiresAt - 40_000 + 500 - (await phoneNow()));
    await expect.poll(() => perm.locator('.card-expiry').textContent()).toMatch(/^Expires in (40|39|38) s$/);
    await perm.screenshot({ path: artifactPath('web/durable-q-40s.png') });
    await page.clock.fastForward(45_000);
    await expect.poll(() => perm.locator('.card-expiry').textContent()).toBe('Expired');
    expect(await perm.locator('.option-words').count()).toBe(4);

    // Always allow: the first tap names the tool, the second sends it; the card closes.
    await perm.getByRole('button', { name: /Always allow/ }).click();
    await perm.getByText('Tap again to always allow write_file').waitFor();
    await perm.screenshot({ path: artifactPath('web/durable-q-always.png') });
    await perm.getByRole('button', { name: /Tap again/ }).click();
    await perm.waitFor({ state: 'detached' });
    expect(await agent.asks.get('perm')).toMatchObject({ status: 'answered', answer: { kind: 'permission', option: 'always' } });

    await card('one').getByRole('button', { name: 'dev' }).click();
    expect(await agent.asks.get('one')).toMatchObject({ status: 'answered', answer: { options: ['dev'] } });

    const many = card('many');
    await many.getByText('Pick any number').waitFor();
    await many.getByRole('button', { name: /Answer mail/ }).click();
    await many.getByRole('button', { name: /A walk/ }).click();
    expect(await many.locator('[aria-pressed="true"]').count()).toBe(2);
    await many.getByRole('button', { name: 'Send' }).click();
    expect(await agent.asks.get('many')).toMatchObject({ status: 'answered', answer: { options: ['mail', 'walk'] } });

    const text = card('text');
    await text.getByRole('textbox').fill('Twelve chars');
    expect(await text.locator('.card-count').textContent()).toBe('12 of 500');
    await text.screenshot({ path: artifactPath('web/durable-q-text.png') });
    await text.getByRole('button', { name: 'Send' }).click();
    expect(await agent.asks.get('text')).toMatchObject({ status: 'answered', answer: { text: 'Twelve chars' } });

    const form = card('form');
    expect(await form.locator('.field-required').allTextContents()).toEqual(['Required']);
    expect(await form.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    await form.getByLabel('Summary').fill('The build is red');
    await form.getByLabel('Team').selectOption('infra');
    await form.getByLabel('Urgent').check();
    await form.screenshot({ path: artifactPath('web/durable-q-form.png') });
    await form.getByRole('button', { name: 'Send' }).click();
    expect(await agent.asks.get('form')).toMatchObject({ status: 'answered', answer: { values: { summary: 'The build is red', team: ['infra'], urgent: true } } });

    // The rest: the cut one says so and offers no Always allow; the unknown kind shows its words.
    await card('long').waitFor();
    expect(await card('long').locator('.card-shortened').textContent()).toBe('Text shortened');
    expect(await card('long').locator('.option-words').allTextContents()).toEqual(['Allow', 'Deny', 'Cancel']);
    expect(await card('poll').textContent()).toContain('Three places, one vote each.');
    expect(await card('poll').textContent()).toContain('This ask cannot be answered from the phone.');
    expect(await card('poll').locator('button').count()).toBe(0);
    await page.screenshot({ path: artifactPath('web/durable-q-rest.png'), fullPage: true });
    // Answered from the phone: no receipt line.
    expect(await page.locator('.chat-notice').count()).toBe(0);
    expect(rig.errors).toEqual([]);
  }, 120_000);

  it('after a tap: decided, timed out, already answered, not taken, refused, changed, unsure with Try again on the same request id, may be applied', async () => {
    agent.scripts.set('decided', () => (agent.asks.get('decided')!.decide(), 'pass'));
    agent.scripts.set('timed', () => ((agent.clock.offset = HOUR), 'pass'));
    agent.scripts.set('already', () => 'other-first');
    agent.scripts.set('notopen', () => (agent.conversations.get('taps')!.asks.delete('notopen'), 'pass'));
    await open('taps');
    expect(await card('timed').locator('.card-expiry').textContent()).toBe('Expired');
    const tapA = async (id: string, words: string) => {
      await card(id).getByRole('button', { name: 'A' }).click();
      await card(id).locator('.card-result', { hasText: words }).waitFor();
    };
    await tapA('decided', 'Decided in the durable agent.');
    await tapA('timed', 'Timed out before an answer.');
    await tapA('already', 'Already answered. This card goes away on the next update.');
    await tapA('notopen', 'Not taken. The question may show again in a moment.');
    await tapA('refused', 'asker takes no answers on Sundays.');
    // The chat keeps a line for the decided and the timed out ones.
    await page.locator('.chat-notice', { hasText: 'Decided in the durable agent: Decide first?' }).waitFor();
    await page.locator('.chat-notice', { hasText: 'Timed out before an answer: Late?' }).waitFor();
    // A frozen card keeps its words and its buttons, which send nothing more.
    const before = agent.answers.length;
    await card('decided').getByRole('button', { name: 'A' }).click({ force: true });
    expect(await card('decided').getByRole('button', { name: 'A' }).getAttribute('aria-disabled')).toBe('true');
    expect(agent.answers.length).toBe(before);
    await page.screenshot({ path: artifactPath('web/durable-q-after-tap.png'), fullPage: true });

    agent.scripts.set('changed', () => (agent.asks.get('changed')!.update({ kind: 'choice', title: 'Deploy to staging now?', options: [{ id: 'a', label: 'A' }] }), 'pass'));
    agent.scripts.set('unsure', () => 'throw');
    agent.scripts.set('maybe', () => (agent.asks.get('maybe')!.update({ kind: 'choice', title: 'Lost, then changed: still?', options: [{ id: 'a', label: 'A' }] }), 'throw'));
    await open('retries');
    // A question that names no tool is not offered "Always allow".
    expect(await card('notool').locator('.option-words').allTextContents()).toEqual(['Allow', 'Deny']);
    await card('changed').getByRole('button', { name: 'A' }).click();
    await card('changed').locator('.card-result', { hasText: 'This ask changed. Read it again, then tap an answer.' }).waitFor();
    await card('changed').locator('.card-title', { hasText: 'Deploy to staging now?' }).waitFor();

    await card('unsure').getByRole('button', { name: 'A' }).click();
    await card('unsure').locator('.card-result', { hasText: 'Not sure the answer arrived. Try again sends it once more.' }).waitFor();
    await card('maybe').getByRole('button', { name: 'A' }).click();
    await card('maybe').locator('.card-result', { hasText: 'Not sure the answer arrived.' }).waitFor();
    await page.screenshot({ path: artifactPath('web/durable-q-unsure.png'), fullPage: true });
    await card('unsure').getByRole('button', { name: 'Try again' }).click();
    await card('unsure').waitFor({ state: 'detached' });
    const unsure = agent.answers.filter((a) => a.questionId === 'unsure').map((a) => a.requestId);
    expect(unsure).toHaveLength(2);
    expect(unsure[1]).toBe(unsure[0]);
    expect(await agent.asks.get('unsure')).toMatchObject({ status: 'answered' });
    await card('maybe').getByRole('button', { name: 'Try again' }).click();
    await card('maybe').locator('.card-result', { hasText: 'May already be applied. Check the chat.' }).waitFor();
    // Read the new form, then tap again: a fresh request id, taken.
    await card('changed').getByRole('button', { name: 'A' }).click();
    await card('changed').waitFor({ state: 'detached' });
    await page.screenshot({ path: artifactPath('web/durable-q-retries.png'), fullPage: true });
    expect(rig.errors).toEqual([]);
  }, 120_000);

  it('receipts: a line in the chat for what ended without you, none for what you stopped', async () => {
    await open('receipts');
    await card('r-decide').waitFor();
    agent.asks.get('r-decide')!.decide();
    await page.locator('.chat-notice', { hasText: 'Decided in the durable agent: Left to the agent' }).waitFor();
    await card('r-decide').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.locator('.chat-notice', { hasText: 'stopped' }).waitFor();
    await card('r-stop').waitFor({ state: 'detached' });
    expect(await page.locator('.chat-notice').allTextContents()).toEqual(['Decided in the durable agent: Left to the agent', 'stopped']);
    await page.screenshot({ path: artifactPath('web/durable-q-receipts.png'), fullPage: true });
    expect(rig.errors).toEqual([]);
  }, 60_000);
});
