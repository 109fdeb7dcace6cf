/**
 * A pane's input left off by a bridge that died. From its paste to its Enter a send switches
 * the pane's input off (`select-pane -d`, send/typist.ts), so no one's keys mix with its text. A
 * bridge killed in that window left the pane deaf to everyone: the person at its terminal, and
 * every answer from the phone, which the bridge then said `answered` though tmux dropped its
 * keys. The 60-minute soak saw it: one stand-in took none of 82 answers to its dialog. The next
 * bridge put the input back on only for a send its receipt log still named as caught
 * mid-typing, and that log is rewritten as the bridge opens it: a bridge killed again before it
 * resumed its sends left the pane off for good. The pane itself now carries the mark of the
 * bridge that switched its input off, and a bridge that starts switches on every pane whose
 * mark names a process gone, whatever its logs say; a pane the person switched off stays off.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OUTCOME, ReceiptBody, Snapshot } from '@collie/protocol';
import { ReceiptStore } from '../src/send/receipt-store';
import { bridgeProcess, claudePaneReady } from './bridge-process';
import { standInWorld } from './stand-in-rig';

describe('a pane whose input a dead bridge left off', () => {
  it('is switched on by the next bridge, even when the receipt log no longer names it; a pane the person switched off stays off', async () => {
    await using world = await standInWorld('collie-input-off');
    const { tmux, state, env, auth, fifo, pane } = world;
    // The person's own pane, its input switched off by them.
    const theirs = await tmux.newSession('theirs', { cmd: 'cat' });
    await tmux.tmux('select-pane', '-d', '-t', theirs);
    const inputOff = async (p: string) => (await tmux.tmux('display-message', '-p', '-t', p, '#{pane_input_off}')).trim() === '1';
    const answers = () => world.entries().filter((e) => e.answer !== undefined);

    // Keys reach the agent 5 s late, so the paste is not in its box yet when the bridge dies.
    writeFileSync(fifo, 'lag 5000\n');
    const first = await bridgeProcess(env);
    try {
      const id = await claudePaneReady(first.url, auth, pane);
      void fetch(`${first.url}/api/panes/${encodeURIComponent(id)}/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ text: 'caught mid-send', request_id: 'mid-1' }) }).catch(() => undefined);
      await expect.poll(() => inputOff(pane), { timeout: 10_000, interval: 20 }).toBe(true);
    } finally {
      first.child.kill('SIGKILL');
    }
    await new Promise((r) => first.child.once('exit', r));
    expect(await inputOff(pane)).toBe(true);
    // A bridge that opened the log (rewriting the send as interrupted) and was killed before it resumed its sends.
    const store = await ReceiptStore.open(state.path);
    expect(store.get('mid-1')?.receipt.outcome).toBe(OUTCOME.interrupted);
    await store.close();

    writeFileSync(fifo, 'lag 0\n');
    const second = await bridgeProcess(env);
    try {
      await expect.poll(() => inputOff(pane), { timeout: 10_000 }).toBe(false);
      expect(await inputOff(theirs)).toBe(true);
      // And the pane takes an answer from the phone again: the soak's fault, end to end.
      await expect.poll(async () => (await tmux.capture(pane)).includes('caught mid-send'), { timeout: 10_000 }).toBe(true);
      await tmux.tmux('send-keys', '-t', pane, 'C-u');
      writeFileSync(fifo, 'dialog\n');
      const snapshot = async () => Snapshot.parse(await (await fetch(`${second.url}/api/snapshot`, { headers: auth })).json());
      let signature = '';
      await expect.poll(async () => (signature = (await snapshot()).panes.find((p) => p.tmuxId === pane && p.state === 'blocked')?.card?.signature ?? ''), { timeout: 10_000 }).not.toBe('');
      const id = `${tmux.name}:${pane}`;
      const res = await fetch(`${second.url}/api/panes/${encodeURIComponent(id)}/answer`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ signature, option: 2, request_id: 'answer-1' }) });
      expect(ReceiptBody.parse(await res.json()).receipt.outcome).toBe(OUTCOME.answered);
      await expect.poll(answers, { timeout: 5_000 }).toEqual([expect.objectContaining({ answer: 2 })]);
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    }
  });
});
