import { DurableAgent, serve, type AskResult } from '@collie/durable-sdk';
import { conversationKey, type WireAnswer } from '@collie/protocol';
import { artifactPath, tempDir } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { durableRig, sock, untilDurable } from './durable-rig';

/**
 * An expired ask with the project's own SDK at 390×844 (the page: "Past the expiry the buttons
 * stay, and the durable agent answers a late tap itself"): at its expiry the ask resolves
 * `expired`, the card stays with its buttons and reads "Expired"; a late tap is taken by the
 * author's onLateTap (the card closes) or else told "Timed out before an answer.". Real clocks:
 * the expiry fires on its own, and the test waits on the ask resolving, not on a time.
 */
describe('durable agents: a late tap on an expired ask (390×844)', () => {
  it('keeps the expired card with its buttons; onLateTap takes a late tap, without it the tap is timed out', async () => {
    await using work = await tempDir('collie-durable-late-');
    const late: WireAnswer[] = [];
    const agent = new DurableAgent({ runtime: 'late', onMessage: () => undefined, onStop: () => undefined });
    const c = agent.open({ id: 'late', title: 'Late taps' });
    c.startTurn();
    const choice = (id: string, title: string) => ({ id, kind: 'choice' as const, title, options: [{ id: 'a', label: 'A' }], expiresInMs: 4_000 });
    const taken = c.ask({ ...choice('kept', 'Taken late?'), onLateTap: (a) => (late.push(a), true) });
    const timed = c.ask(choice('timed', 'Timed out late?'));
    const listening = await serve(agent, { socket: sock(work.path, 'late') });
    await using rig = await durableRig(work.path, [{ name: 'late', address: listening.address }]);
    try {
      const { page } = rig;
      await untilDurable(rig.bridge.hub, 'the two asks', (d) => d.conversations.get(conversationKey('late', 'late'))?.questions.length === 2);
      await page.goto('/#/durable/late/late');
      const card = (id: string) => page.locator(`.durable-card[data-question="${id}"]`);
      await card('timed').waitFor();

      const results: AskResult[] = await Promise.all([taken, timed]);
      expect(results).toEqual([{ status: 'expired' }, { status: 'expired' }]);
      // Expired: the card stays, reads Expired, and its buttons still take a tap.
      await expect.poll(() => card('kept').locator('.card-expiry').textContent()).toBe('Expired');
      await expect.poll(() => card('timed').locator('.card-expiry').textContent()).toBe('Expired');
      expect(await card('kept').getByRole('button', { name: 'A' }).getAttribute('aria-disabled')).not.toBe('true');
      expect(rig.bridge.hub.durable.conversations.get(conversationKey('late', 'late'))!.questions.map((q) => q.id)).toEqual(['kept', 'timed']);
      await page.screenshot({ path: artifactPath('web/durable-late-expired.png'), fullPage: true });

      // The author's onLateTap takes it: the card closes, the answer is in the author's hands.
      await card('kept').getByRole('button', { name: 'A' }).click();
      await card('kept').waitFor({ state: 'detached' });
      expect(late).toEqual([{ kind: 'choice', options: ['a'] }]);
      // No onLateTap: timed out, the card freezes with its words and the chat keeps a line.
      await card('timed').getByRole('button', { name: 'A' }).click();
      await card('timed').locator('.card-result', { hasText: 'Timed out before an answer.' }).waitFor();
      await page.locator('.chat-notice', { hasText: 'Timed out before an answer: Timed out late?' }).waitFor();
      await page.screenshot({ path: artifactPath('web/durable-late-tapped.png'), fullPage: true });
      expect(rig.errors).toEqual([]);
    } finally {
      await listening.close();
    }
  }, 180_000);
});
