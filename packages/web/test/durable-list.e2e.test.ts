import { DurableAgent, serve, type Listening } from '@collie/durable-sdk';
import { startDesk, type Desk } from '@collie/durable-sdk/examples/desk';
import type { AgentHello, ClosedConversation } from '@collie/protocol';
import { artifactPath, tempDir, type TempDir } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { durableRig, sock, untilDurable, type DurableRig } from './durable-rig';

/** An agent of a later wire: its hello says v2, and the bridge refuses it with the page's words. */
class Future extends DurableAgent {
  override hello(): AgentHello {
    return { ...super.hello(), wire: 2 };
  }
}

/**
 * The conversation list at 390×844 (order, marks, one line, "Untitled conversation", Closed,
 * Load more, every note at its foot, what stays drawn when a read fails), reading a closed
 * conversation and Reopen, the menu's "Close conversation", and New conversation with or
 * without starters: the example desk and small SDK agents through the real bridge.
 */
describe('durable agents: the conversation list and New conversation (390×844)', () => {
  let work: TempDir;
  let rig: DurableRig;
  let page: Page;
  let desk: Desk;
  const listening: Listening[] = [];
  const plain = new DurableAgent({ runtime: 'plain' });
  const nolist = new DurableAgent({ runtime: 'nolist', controls: { history: true } });
  let mode: 'ok' | 'hang' | 'throw' = 'ok';
  let unhang!: () => void;
  const hung = new Promise<void>((r) => (unhang = r));
  const flakyRow: ClosedConversation = { id: 'gone-1', title: 'Yesterday', subtitle: 'closed', updatedAt: Date.now() - 3_600_000 };
  const flaky = new DurableAgent({
    runtime: 'flaky',
    closedList: async () => {
      if (mode === 'hang') await hung;
      if (mode === 'throw') throw new Error('the disk is gone');
      return { conversations: [flakyRow], next: null };
    },
  });
  const future = new Future({ runtime: 'future' });

  beforeAll(async () => {
    work = await tempDir('collie-durable-l-');
    desk = await startDesk({ socket: sock(work.path, 'desk') }, { paceMs: 5 });
    plain.open({ title: null, subtitle: 'no title given' });
    nolist.open({ title: 'Only open ones' });
    flaky.open({ title: 'Flaky today' });
    for (const [a, name] of [[plain, 'plain'], [nolist, 'nolist'], [flaky, 'flaky'], [future, 'future']] as const) listening.push(await serve(a, { socket: sock(work.path, name) }));
    const names = ['plain', 'nolist', 'flaky', 'future'];
    // `gone` listens nowhere: Unreachable.
    const gone = { name: 'gone', address: sock(work.path, 'gone') };
    rig = await durableRig(work.path, [{ name: 'desk', address: desk.listening.address }, ...listening.map((l, i) => ({ name: names[i]!, address: l.address })), gone]);
    page = rig.page;
    await untilDurable(rig.bridge.hub, 'every agent ready or refused', (d) =>
      ['desk', 'plain', 'nolist', 'flaky'].every((n) => d.agents.get(n)?.state === 'ready') && d.agents.get('future')?.state === 'version_mismatch' && d.agents.get('gone')?.state === 'unreachable',
    );
  }, 180_000);

  afterAll(async () => {
    unhang?.();
    await rig?.[Symbol.asyncDispose]();
    await desk?.close();
    for (const l of listening) await l.close();
    await work?.[Symbol.asyncDispose]();
  });

  it('the list: waiting first, marks, one line, Closed with Load more, a closed one read-only with Reopen, Close conversation, New conversation', async () => {
    await page.goto('/');
    const row = (name: string) => page.locator('.durable-row', { hasText: name });
    await row('future').locator('.durable-state', { hasText: 'Version mismatch' }).waitFor();
    await page.screenshot({ path: artifactPath('web/durable-l-dashboard.png'), fullPage: true });
    await row('desk').click();
    const open = page.locator('.durable-open .durable-conv');
    await open.nth(1).waitFor();
    expect(await open.locator('.durable-line1').allTextContents()).toEqual(['Save a note', 'Morning notes']);
    expect(await open.first().locator('.durable-mark').textContent()).toBe('Needs you');
    expect(await open.first().locator('.count.needs-you').textContent()).toBe('1');
    expect(await open.first().locator('.durable-line2').textContent()).toBe('Write notes/today.md?');
    expect(await open.nth(1).locator('.durable-mark').textContent()).toBe('Open');
    expect(await open.nth(1).locator('.durable-line2').textContent()).toBe('notes/today.md');
    expect(await open.first().locator('.durable-time').textContent()).toMatch(/^\d+s$/);
    await page.locator('.durable-closed-title', { hasText: 'Closed' }).waitFor();
    await expect.poll(() => page.locator('.durable-closed').count()).toBe(100);
    expect(await page.locator('.durable-closed').nth(3).locator('.durable-line1').textContent()).toBe('Untitled conversation');
    expect(await page.locator('.durable-closed').first().locator('.durable-time').textContent()).toBe('1h');
    await page.screenshot({ path: artifactPath('web/durable-l-list.png') });
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => page.locator('.durable-closed').count()).toBe(200);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => page.locator('.durable-closed').count()).toBe(250);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    expect(await page.locator('.durable-foot').count()).toBe(0);

    // A closed one reads read-only; Reopen opens it in Chat.
    await page.locator('.durable-closed', { hasText: 'Old note 1' }).first().click();
    await page.locator('.chat-notice', { hasText: 'closed' }).waitFor();
    expect(await page.locator('.durable-header .durable-line1').textContent()).toBe('Old note 1 Experimental');
    expect(await page.getByRole('textbox').count()).toBe(0);
    await page.screenshot({ path: artifactPath('web/durable-l-read.png') });
    await page.getByRole('button', { name: 'Reopen' }).click();
    await page.waitForURL(/#\/durable\/desk\/old-0$/);
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    expect(await page.locator('.durable-header .durable-line2').textContent()).toBe('reopened');

    // The menu closes it, and the list no longer holds it open.
    await page.getByLabel('Menu').click();
    await page.getByRole('menuitem', { name: 'Close conversation' }).click();
    await page.waitForURL(/#\/durable\/desk$/);
    await expect.poll(() => open.locator('.durable-line1').allTextContents()).toEqual(['Save a note', 'Morning notes']);

    // New conversation: the starters; one opens its conversation in Chat.
    await page.getByRole('link', { name: 'New conversation' }).click();
    await page.locator('h1', { hasText: 'New conversation' }).waitFor();
    expect(await page.locator('.durable-starter .durable-line1').allTextContents()).toEqual(['Write a note', 'Plan my day', 'File a ticket', 'Rename']);
    expect(await page.locator('.durable-starter .durable-line2').first().textContent()).toBe('Asks before it writes');
    await page.screenshot({ path: artifactPath('web/durable-l-new.png') });
    await page.locator('.durable-starter', { hasText: 'Rename' }).click();
    await page.locator('.durable-card', { hasText: 'A new name for this conversation?' }).waitFor();
    expect(await page.locator('.durable-header .durable-line1').textContent()).toBe('Rename me Experimental');

    // An agent with no starters and no history: its open rows alone, untitled, and the words for no starters.
    await page.goto('/#/durable/plain');
    await page.locator('.durable-conv .durable-line1', { hasText: 'Untitled conversation' }).waitFor();
    expect(await page.locator('.durable-conv .durable-line2').textContent()).toBe('no title given');
    expect(await page.locator('.durable-closed-title').count()).toBe(0);
    expect(await page.locator('.durable-foot').count()).toBe(0);
    await page.goto('/#/durable-new/plain');
    await page.getByText("This machine's durable agent offers no starters yet.").waitFor();
    await page.screenshot({ path: artifactPath('web/durable-l-no-starters.png') });
    expect(rig.errors).toEqual([]);
  }, 120_000);

  it('the foot of the list: keeps no list, did not answer, wire version, failed on the way; a list drawn stays drawn', async () => {
    const foot = page.locator('.durable-foot');
    await page.goto('/#/durable/nolist');
    await foot.waitFor();
    expect(await foot.textContent()).toBe('This durable agent does not keep a list of its conversations.');

    await page.goto('/#/durable/future');
    await foot.waitFor();
    expect(await foot.textContent()).toBe("The durable agent speaks wire v2, this Collie speaks v1. Update Collie, or the agent's SDK.");
    expect(await page.locator('.notice').textContent()).toContain("Program speaks wire v2, this Collie speaks v1. Update Collie, or the durable agent's SDK.");
    await page.screenshot({ path: artifactPath('web/durable-l-version.png') });

    // Unreachable: the row says so, and its home says why; no list is read from it.
    await page.goto('/');
    await page.locator('.durable-row', { hasText: 'gone' }).locator('.durable-state', { hasText: 'Unreachable' }).waitFor();
    await page.locator('.durable-row', { hasText: 'gone' }).click();
    await page.locator('.notice-title', { hasText: 'Unreachable' }).waitFor();
    expect(await page.locator('.notice-body').textContent()).toBe('Nothing answers at its socket: the durable agent is not running, or listens elsewhere.');

    await page.goto('/#/durable/flaky');
    await page.locator('.durable-closed', { hasText: 'Yesterday' }).waitFor();
    // A conversation opens: Collie reads the list again; the agent does not answer, the drawn row stays.
    mode = 'hang';
    flaky.open({ title: 'Second' });
    await foot.waitFor({ timeout: 30_000 });
    expect(await foot.textContent()).toBe('The durable agent did not answer. Try again in a moment.');
    expect(await page.locator('.durable-closed', { hasText: 'Yesterday' }).count()).toBe(1);
    mode = 'throw';
    flaky.open({ title: 'Third' });
    await expect.poll(() => foot.textContent(), { timeout: 30_000 }).toBe("Couldn't load the conversations. Try again.");
    expect(await page.locator('.durable-closed', { hasText: 'Yesterday' }).count()).toBe(1);
    await page.screenshot({ path: artifactPath('web/durable-l-failed.png') });
    mode = 'ok';
    await page.getByRole('button', { name: 'Try again' }).click();
    await foot.waitFor({ state: 'detached' });
    expect(await page.locator('.durable-closed', { hasText: 'Yesterday' }).count()).toBe(1);
    expect(rig.errors).toEqual([]);
  }, 90_000);
});
