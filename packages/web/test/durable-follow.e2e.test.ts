import { DurableAgent, type Conversation } from '@collie/durable-sdk';
import { artifactPath, tempDir, type TempDir } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newestUnderDock } from './chat-foot';
import { durableAgentRig, type DurableRig } from './durable-rig';

/**
 * The chat follows at 390×844: while the person reads at the bottom, every new item (a reply,
 * a notice, a long markdown, one that grows) ends wholly above the dock, by one page scroll; once
 * they scroll up it stays where they are.
 */
describe('durable agents: the chat follows its newest item (390×844)', () => {
  let work: TempDir;
  let rig: DurableRig;
  let page: Page;
  let talk: Conversation;
  const agent = new DurableAgent({
    runtime: 'follower',
    controls: { steer: true },
    onStop: () => undefined,
    onMessage: (c, text) => {
      c.startTurn();
      c.reply(`You said: ${text}.\n\nHere is a longer answer that wraps onto several lines of the phone's narrow screen, so that it takes room.`);
      c.endTurn();
    },
  });

  beforeAll(async () => {
    work = await tempDir('collie-durable-follow-');
    talk = agent.open({ id: 'talk', title: 'Follow me', workspace: '~/follow' });
    for (let i = 0; i < 12; i++) talk.reply(`Earlier answer ${i}: enough words to fill a line or two of the thread on a phone.`);
    talk.buttons([
      { id: 'a', label: 'Run', icon: 'play', onTap: (c) => c.notice('ran') },
      { id: 'b', label: 'Check', icon: 'check', onTap: () => undefined },
    ]);
    rig = await durableAgentRig(work.path, 'follower', agent, 'talk');
    page = rig.page;
  }, 180_000);

  afterAll(async () => {
    await rig?.[Symbol.asyncDispose]();
    await work?.[Symbol.asyncDispose]();
  });

  it('after a send, a reply, a notice and a growing item the newest is wholly above the composer; scrolled up, it stays', async () => {
    await page.goto('/#/durable/follower/talk');
    await page.locator('.chat-reply', { hasText: 'Earlier answer 11' }).waitFor();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.getByRole('textbox', { name: 'Message' }).fill('follow me');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.locator('.chat-reply', { hasText: 'You said: follow me' }).waitFor();
    await expect.poll(async () => (await newestUnderDock(page)).under).toBeLessThanOrEqual(0);
    await page.screenshot({ path: artifactPath('web/durable-follow-reply.png') });

    talk.notice('a notice after the reply');
    await page.locator('.chat-notice', { hasText: 'a notice after the reply' }).waitFor();
    await expect.poll(async () => (await newestUnderDock(page)).under).toBeLessThanOrEqual(0);

    const grows = talk.markdown('Growing', { growing: true });
    await page.locator('.chat-markdown, .chat-reply', { hasText: 'Growing' }).first().waitFor();
    grows.append(`\n\n${'More words on a line of their own. '.repeat(30)}`);
    await page.getByText('More words on a line', { exact: false }).first().waitFor();
    await expect.poll(async () => (await newestUnderDock(page)).under).toBeLessThanOrEqual(0);
    grows.settle();
    const settled = await newestUnderDock(page);
    expect(settled.nested).toBe(0);
    expect(settled.atFoot).toBe(true);
    await page.screenshot({ path: artifactPath('web/durable-follow-grown.png') });

    // Scrolled up to read: a new item does not pull the page down.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    talk.reply('A reply while the person reads above');
    await page.locator('.chat-reply', { hasText: 'A reply while the person reads above' }).waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(rig.errors).toEqual([]);
  }, 120_000);
});
