/**
 * A card answer (or a key press) caught waiting by a `kill -9`. Its receipt was written
 * (`queued`) before anything was pressed, and it waited for its turn in the pane's lane (behind
 * keys still going in, or the dialog's settle). The next bridge resumed only text sends, so the
 * answer's receipt stayed `queued` for good: the same request id answered `queued` forever, and
 * the phone's card spun. The 30-minute soak saw one. Now the next bridge ends it as not sent
 * (nothing of it was pressed, and an answer is never pressed blind later), and the keys it was
 * waiting behind, caught mid-press, say that it is not known what they did.
 */
import { describe, expect, it } from 'vitest';
import { OUTCOME, ReceiptBody, Snapshot, type SendReceipt } from '@collie/protocol';
import { bridgeProcess } from './bridge-process';
import { standInWorld } from './stand-in-rig';

describe('an answer waiting in its pane lane when the bridge is killed with -9', () => {
  it('is final after the restart (not sent, nothing pressed), answers its request id with that receipt, and the dialog takes a new answer', async () => {
    await using world = await standInWorld('collie-answer-restart');
    const { tmux, env, auth, pane, control } = world;
    const id = `${tmux.name}:${pane}`;
    const path = (what: string) => `/api/panes/${encodeURIComponent(id)}/${what}`;
    const post = (url: string, what: string, body: unknown) => fetch(`${url}${path(what)}`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify(body) });
    const snapshot = async (url: string) => Snapshot.parse(await (await fetch(`${url}/api/snapshot`, { headers: auth })).json());
    const receipt = async (url: string, requestId: string): Promise<SendReceipt | undefined> => (await snapshot(url)).sends.find((r) => r.requestId === requestId);
    const answers = () => world.entries().filter((e) => e.answer !== undefined);
    const signatureOf = async (url: string) => {
      let signature = '';
      await expect.poll(async () => (signature = (await snapshot(url)).panes.find((p) => p.tmuxId === pane && p.state === 'blocked')?.card?.signature ?? ''), { timeout: 15_000 }).not.toBe('');
      return signature;
    };
    const answer = { option: 2, request_id: 'answer-caught' };

    const first = await bridgeProcess(env);
    try {
      await control('dialog');
      const signature = await signatureOf(first.url);
      // Keys reach the agent 30 s late, so the pane draws nothing after each key: 16 Spaces
      // (a dialog ignores them) hold the pane's lane for about 8 s, the answer behind them.
      await control('lag 30000');
      void post(first.url, 'keys', { keys: Array(16).fill('Space'), request_id: 'keys-caught' }).catch(() => undefined);
      await expect.poll(async () => (await receipt(first.url, 'keys-caught'))?.state, { timeout: 5_000, interval: 20 }).toBe('typing');
      void post(first.url, 'answer', { ...answer, signature }).catch(() => undefined);
      await expect.poll(async () => (await receipt(first.url, 'answer-caught'))?.state, { timeout: 5_000, interval: 20 }).toBe('queued');
      expect((await receipt(first.url, 'keys-caught'))?.state).toBe('typing');
    } finally {
      first.child.kill('SIGKILL');
    }
    await new Promise((r) => first.child.once('exit', r));
    await control('lag 0');

    const second = await bridgeProcess(env);
    try {
      expect(await receipt(second.url, 'answer-caught')).toMatchObject({ state: 'not_sent', outcome: OUTCOME.stopped, final: true });
      expect(await receipt(second.url, 'keys-caught')).toMatchObject({ state: 'not_submitted', outcome: OUTCOME.stoppedPressing, final: true });
      // The same request again: its receipt, and nothing pressed.
      const signature = await signatureOf(second.url);
      const again = await post(second.url, 'answer', { ...answer, signature });
      expect(again.status).toBe(200);
      expect(ReceiptBody.parse(await again.json()).receipt).toMatchObject({ requestId: 'answer-caught', outcome: OUTCOME.stopped });
      await new Promise((r) => setTimeout(r, 1000));
      expect(answers()).toEqual([]);
      // The dialog is still open, and takes an answer with a new request id.
      const fresh = await post(second.url, 'answer', { signature, option: 1, request_id: 'answer-fresh' });
      expect(ReceiptBody.parse(await fresh.json()).receipt.outcome).toBe(OUTCOME.answered);
      await expect.poll(answers, { timeout: 5_000 }).toEqual([expect.objectContaining({ answer: 1 })]);
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    }
  });
});
