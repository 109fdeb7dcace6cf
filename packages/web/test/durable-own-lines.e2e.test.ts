import { DurableAgent, Refusal, type Conversation } from '@collie/durable-sdk';
import { artifactPath, tempDir, type TempDir } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { durableAgentRig, type DurableRig } from './durable-rig';

/**
 * Your own lines are kept for the page's 10 minutes across navigation and reloads (390×844,
 * an SDK agent through the real bridge): a refused line stays "Not sent" with the agent's
 * reason, in its place in time order; a line whose answer never came stays "Sending, not confirmed" and Send again still works.
 */
describe('durable agents: your own lines across navigation and reloads (390×844)', () => {
  let work: TempDir;
  let rig: DurableRig;
  let page: Page;
  let talk: Conversation;
  const agent = new DurableAgent({
    runtime: 'keeper',
    onMessage: (_c, text) => {
      // The SDK wrote its copy of the line first: the phone still says "Not sent", with the reason.
      if (text === 'refuse me') throw new Refusal('keeper is busy with the backup.');
    },
  });
  const own = (text: string) => page.locator('.chat-own', { hasText: text });
  /** The texts of the chat's rows top to bottom. */
  const order = () => page.locator('main.durable-chat > .chat-timed, main.durable-chat > .chat-item').allTextContents();

  beforeAll(async () => {
    work = await tempDir('collie-durable-own-');
    talk = agent.open({ id: 'talk', title: 'Keep my lines', workspace: '~/keep' });
    talk.reply('Hello from the keeper.');
    rig = await durableAgentRig(work.path, 'keeper', agent, 'talk');
    page = rig.page;
  }, 180_000);

  afterAll(async () => {
    await rig?.[Symbol.asyncDispose]();
    await work?.[Symbol.asyncDispose]();
  });

  it('a refused line: Not sent with the reason, in time order; an unconfirmed line keeps Send again; both survive leaving and a reload', async () => {
    await page.goto('/#/durable/keeper/talk');
    await page.locator('.chat-reply', { hasText: 'Hello from the keeper.' }).waitFor();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('refuse me');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const refused = own('refuse me');
    await refused.locator('.own-words', { hasText: 'Not sent' }).waitFor();
    await refused.locator('.own-reason', { hasText: 'keeper is busy with the backup.' }).waitFor();
    await box.fill('');
    // A newer message: the refused line stays above it.
    talk.reply('Backup finished.');
    await page.locator('.chat-reply', { hasText: 'Backup finished.' }).waitFor();
    // A line whose answer never comes (the connection drops on the way): "Sending, not confirmed".
    await page.route('**/api/durable/message', (r) => r.abort());
    await box.fill('keep this one');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await own('keep this one').locator('.own-words', { hasText: 'Sending, not confirmed' }).waitFor();
    await page.unroute('**/api/durable/message');
    const expected = async () => {
      const rows = await order();
      const at = (t: string) => rows.findIndex((r) => r.includes(t));
      expect(at('Hello from the keeper.')).toBeLessThan(at('refuse me'));
      expect(at('refuse me')).toBeLessThan(at('Backup finished.'));
      expect(at('Backup finished.')).toBeLessThan(at('keep this one'));
      expect(await page.locator('.chat-user', { hasText: 'refuse me' }).count()).toBe(1);
      await refused.locator('.own-words', { hasText: 'Not sent' }).waitFor();
      await refused.locator('.own-reason', { hasText: 'keeper is busy with the backup.' }).waitFor();
      await own('keep this one').locator('.own-words', { hasText: 'Sending, not confirmed' }).waitFor();
    };
    await expected();
    await page.screenshot({ path: artifactPath('web/durable-own-lines.png') });

    // Away to the agent's list and back.
    await page.goto('/#/durable/keeper');
    await page.locator('.durable-conv', { hasText: 'Keep my lines' }).click();
    await page.locator('.chat-reply', { hasText: 'Backup finished.' }).waitFor();
    await expected();
    // A reload.
    await page.reload();
    await page.locator('.chat-reply', { hasText: 'Backup finished.' }).waitFor();
    await expected();
    await page.screenshot({ path: artifactPath('web/durable-own-lines-reloaded.png') });
    // Send again after the reload: the same request id, the agent's copy takes the line's place.
    await own('keep this one').getByRole('button', { name: 'Send again' }).click();
    await own('keep this one').waitFor({ state: 'detached' });
    await page.locator('.chat-user', { hasText: 'keep this one' }).waitFor();
    expect(rig.errors).toEqual([]);
  }, 120_000);
});
