/**
 * A walky message's outcome that comes while the state disk is full. The soak's hour lost one:
 * the lead took a member's message, and its outcome came during the disk-full minute; the write
 * of that change failed, nothing wrote it again, and neither the log nor the member ever had it
 * (the lead's seen.json kept `accepted` for good once the pane was gone). The built bridge here
 * runs with its state on a 4 MB tmpfs (testkit smallDisk) and a stand-in agent in a tmux of the
 * same namespace; a message waits for the agent's turn, the disk fills, the turn ends.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INBOX_REASON, REFUSAL, Snapshot, WalkyMessage, WalkySendAnswer } from '@collie/protocol';
import { claudePaneReady } from './bridge-process';
import { smallDiskDesk } from './small-disk-rig';

describe('a walky outcome while the state disk is full', () => {
  it('is written once there is room, and the receipt on disk is final', async () => {
    await using desk = await smallDiskDesk('walky-disk');
    const { disk, state } = desk;
    const { pane, fifo, auth } = desk.standInPane();
    const headers = { ...auth, 'content-type': 'application/json' };
    await using bridge = await desk.startBridge();
    await bridge.explained(async () => {
      const id = await claudePaneReady(bridge.url, headers, pane);
      const snapshot = async () => Snapshot.parse(await (await fetch(`${bridge.url}/api/snapshot`, { headers })).json());
      const address = (await snapshot()).panes.find((p) => p.id === id)!.address;
      const status = async (mid: string) => WalkyMessage.parse(((await (await fetch(`${bridge.url}/api/walky/status?id=${mid}`, { headers })).json()) as { message: unknown }).message);
      const walkyFile = (name: string) => disk.run(['cat', join(state.path, 'walky', name)]);
      // The message's lines in the log, and what seen.json (which answers for it once the log drops it) holds.
      const onDisk = (mid: string) => ({
        log: walkyFile('log.jsonl')
          .split('\n')
          .filter(Boolean)
          .map((l) => (JSON.parse(l) as { m: WalkyMessage }).m)
          .filter((m) => m.id === mid)
          .map((m) => `${m.state}: ${m.reason}`),
        seen: ((x) => (x ? `${x.state}: ${x.reason}` : null))((JSON.parse(walkyFile('seen.json')) as { ids: Record<string, { state: string; reason: string | null }> }).ids[mid]),
      });

      // A turn runs: the message waits for it, accepted and on disk.
      writeFileSync(fifo, 'busy 3000\n');
      await expect.poll(async () => (await snapshot()).panes.find((p) => p.id === id)?.state, { timeout: 10_000 }).toBe('working');
      const res = await fetch(`${bridge.url}/api/walky/send`, { method: 'POST', headers, body: JSON.stringify({ to: address, body: 'when your turn ends' }) });
      const sent = WalkySendAnswer.parse(await res.json()).message;
      expect(sent.state).toBe('accepted');
      expect(onDisk(sent.id)).toEqual({ log: ['accepted: null'], seen: 'accepted: null' });

      // The disk fills; the turn ends and the message has its outcome. seen.json cannot take it
      // (a new file), and a log line only while it fits in the page the file already has.
      disk.fill(0);
      await expect.poll(async () => (await status(sent.id)).state, { timeout: 20_000 }).not.toBe('accepted');
      const outcome = await status(sent.id);
      const said = `${outcome.state}: ${outcome.reason}`;
      // The send could not write its receipt, so nothing was typed: the message waits in the inbox, and says why in words.
      expect(said).toBe(`inbox-only: ${INBOX_REASON.notSaved}`);
      expect(onDisk(sent.id).seen).toBe('accepted: null');

      // Room again: the outcome is written, as it was said, in both.
      disk.unfill();
      await expect.poll(() => onDisk(sent.id), { timeout: 20_000, interval: 500 }).toEqual({ log: expect.arrayContaining([said]), seen: said });
      expect(onDisk(sent.id).log.at(-1)).toBe(said);
      expect(bridge.child.exitCode, bridge.stderr()).toBeNull();
    });
  });

  it('refuses a message it cannot write at all, says why, and never types it', async () => {
    await using desk = await smallDiskDesk('walky-unsaved');
    const { disk, state } = desk;
    const { pane, log: paneLog, auth } = desk.standInPane();
    const headers = { ...auth, 'content-type': 'application/json' };
    const walkyFile = (name: string) => disk.run(['cat', join(state.path, 'walky', name)]);
    const typed = () => readFileSync(paneLog, 'utf8').split('\n').filter((l) => l.includes('[walky-talky '));
    let id = '';
    let address = '';
    {
      await using bridge = await desk.startBridge();
      await bridge.explained(async () => {
        const paneId = await claudePaneReady(bridge.url, headers, pane);
        address = Snapshot.parse(await (await fetch(`${bridge.url}/api/snapshot`, { headers })).json()).panes.find((p) => p.id === paneId)!.address;
        const status = async (mid: string) => WalkyMessage.parse(((await (await fetch(`${bridge.url}/api/walky/status?id=${mid}`, { headers })).json()) as { message: unknown }).message);

        // No room at all: the message cannot be written before it is typed, so it is not sent, and the sender is told why.
        disk.fill(0);
        const res = await fetch(`${bridge.url}/api/walky/send`, { method: 'POST', headers, body: JSON.stringify({ to: address, body: 'nowhere to write this' }) });
        expect(res.status).toBe(200);
        const sent = WalkySendAnswer.parse(await res.json()).message;
        expect({ state: sent.state, reason: sent.reason }).toEqual({ state: 'refused', reason: REFUSAL.notSaved });
        id = sent.id;
        // Asked again by its id, the same answer: never `accepted`, never typed.
        const again = await fetch(`${bridge.url}/api/walky/send`, { method: 'POST', headers, body: JSON.stringify({ to: address, body: 'nowhere to write this', id }) });
        expect(WalkySendAnswer.parse(await again.json()).message).toMatchObject({ id, state: 'refused', reason: REFUSAL.notSaved });

        // Room again: the refusal is what the disk keeps, in the log and in seen.json.
        disk.unfill();
        await expect.poll(() => (JSON.parse(walkyFile('seen.json')) as { ids: Record<string, { state: string; reason: string | null }> }).ids[id], { timeout: 20_000, interval: 500 }).toMatchObject({ state: 'refused', reason: REFUSAL.notSaved });
        const lines = walkyFile('log.jsonl').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { m: WalkyMessage }).m).filter((m) => m.id === id);
        expect(lines.at(-1)).toMatchObject({ state: 'refused', reason: REFUSAL.notSaved });
        expect((await status(id)).state).toBe('refused');
      });
    }
    // A bridge started again over that disk types nothing of it either.
    await using bridge = await desk.startBridge();
    await bridge.explained(async () => {
      await claudePaneReady(bridge.url, headers, pane);
      const st = WalkyMessage.parse(((await (await fetch(`${bridge.url}/api/walky/status?id=${id}`, { headers })).json()) as { message: unknown }).message);
      expect({ state: st.state, reason: st.reason }).toEqual({ state: 'refused', reason: REFUSAL.notSaved });
      // A message sent now is typed, and it is the only one the pane ever got.
      const res = await fetch(`${bridge.url}/api/walky/send`, { method: 'POST', headers, body: JSON.stringify({ to: address, body: 'this one has room' }) });
      const next = WalkySendAnswer.parse(await res.json()).message;
      await expect.poll(() => (existsSync(paneLog) ? typed() : []), { timeout: 15_000 }).toHaveLength(1);
      expect(typed()[0]).toContain(next.id);
    });
  });
});

