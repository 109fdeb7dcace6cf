import { appendFile, readFile, stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OUTCOME, type SendReceipt } from '@collie/protocol';
import { tempDir } from '@collie/testkit';
import { KEEP_MS } from '../config/retention';
import { ReceiptStore } from './receipt-store';

const receipt = (requestId: string, state: SendReceipt['state'], final: boolean): SendReceipt => ({
  requestId, paneId: 'default:%1', kind: 'text', summary: 's', state, outcome: state, final, createdAt: 1, updatedAt: 1,
});

describe('the receipt log', () => {
  it('survives a reopen; a send caught mid-typing is final and never typed again; waiting ones resume with their text', async () => {
    await using dir = await tempDir('collie-receipts-');
    const a = await ReceiptStore.open(dir.path);
    await a.put({ receipt: receipt('done', 'typed', true) });
    await a.put({ receipt: receipt('held', 'held', false), text: 'wait for me' });
    await a.put({ receipt: receipt('mid', 'typing', false), text: 'half typed' });
    await a.close();
    // A crash mid-write leaves a torn last line.
    await appendFile(join(dir.path, 'sends', 'log.jsonl'), '{"receipt":{"requestId":"torn"');

    const b = await ReceiptStore.open(dir.path, () => 99);
    expect(b.get('done')?.receipt.state).toBe('typed');
    expect(b.get('mid')?.receipt).toMatchObject({ state: 'not_submitted', outcome: OUTCOME.interrupted, final: true, updatedAt: 99 });
    expect(b.get('mid')?.text).toBeUndefined();
    expect(b.get('torn')).toBeUndefined();
    expect(b.waiting().map((s) => [s.receipt.requestId, s.text])).toEqual([['held', 'wait for me']]);
    await b.close();
    expect((await stat(join(dir.path, 'sends', 'log.jsonl'))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(dir.path, 'sends', 'log.jsonl'), 'utf8')).not.toContain('torn');
  });

  it('keys and answers are never pressed after a restart: waiting ones end not sent, ones caught mid-press say it is not known', async () => {
    await using dir = await tempDir('collie-receipts-');
    const a = await ReceiptStore.open(dir.path);
    const of = (requestId: string, kind: SendReceipt['kind'], state: SendReceipt['state']) => ({ ...receipt(requestId, state, false), kind });
    await a.put({ receipt: of('answer-waiting', 'answer', 'queued') });
    await a.put({ receipt: of('keys-waiting', 'keys', 'queued'), keys: ['Enter'] });
    await a.put({ receipt: of('answer-pressing', 'answer', 'typing') });
    await a.put({ receipt: of('keys-pressing', 'keys', 'typing'), keys: ['Down', 'Enter'] });
    await a.put({ receipt: { ...of('answer-done', 'answer', 'typed'), final: true } });
    await a.put({ receipt: of('text-waiting', 'text', 'queued'), text: 'still mine to type' });
    await a.close();

    const b = await ReceiptStore.open(dir.path, () => 7);
    for (const id of ['answer-waiting', 'keys-waiting']) expect(b.get(id)?.receipt).toMatchObject({ state: 'not_sent', outcome: OUTCOME.stopped, final: true, updatedAt: 7 });
    for (const id of ['answer-pressing', 'keys-pressing']) expect(b.get(id)?.receipt).toMatchObject({ state: 'not_submitted', outcome: OUTCOME.stoppedPressing, final: true });
    expect(b.get('keys-waiting')?.keys).toBeUndefined();
    expect(b.get('answer-done')?.receipt).toMatchObject({ state: 'typed', updatedAt: 1 });
    expect(b.waiting().map((s) => s.receipt.requestId)).toEqual(['text-waiting']);
    await b.close();
  });

  it('a final receipt forgets the text it typed, also from the older lines of the log, and keeps a keyed hash', async () => {
    await using dir = await tempDir('collie-receipts-');
    const log = join(dir.path, 'sends', 'log.jsonl');
    const s = await ReceiptStore.open(dir.path);
    const fp = s.fingerprint('text', 'secret-ish text');
    await s.put({ receipt: receipt('x', 'held', false), text: 'secret-ish text', fingerprint: fp });
    expect(await readFile(log, 'utf8')).toContain('secret-ish');
    await s.put({ receipt: receipt('x', 'typed', true), text: 'secret-ish text', fingerprint: fp });
    await s.compact();
    expect(await readFile(log, 'utf8')).not.toContain('secret-ish');
    expect(s.get('x')?.fingerprint).toBe(fp);
    // Keyed: not the plain hash of the text, and the same key after a reopen.
    expect(fp).not.toBe(createHash('sha256').update('text\0secret-ish text').digest('hex'));
    await s.close();
    expect((await stat(join(dir.path, 'sends', 'key'))).mode & 0o777).toBe(0o600);
    const again = await ReceiptStore.open(dir.path);
    expect(again.fingerprint('text', 'secret-ish text')).toBe(fp);
    await again.close();
  });

  it('migrates a log of an earlier version: texts of ended sends dropped, hashes added to waiting ones', async () => {
    await using dir = await tempDir('collie-receipts-');
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(join(dir.path, 'sends'), { recursive: true });
    const old = [
      { receipt: receipt('a', 'queued', false), text: 'old secret a' },
      { receipt: receipt('a', 'typed', true) },
      { receipt: receipt('b', 'held', false), text: 'still waiting' },
    ];
    await writeFile(join(dir.path, 'sends', 'log.jsonl'), old.map((l) => JSON.stringify(l) + '\n').join(''));
    const s = await ReceiptStore.open(dir.path);
    expect(await readFile(join(dir.path, 'sends', 'log.jsonl'), 'utf8')).not.toContain('old secret');
    expect(s.get('b')?.fingerprint).toBe(s.fingerprint('text', 'still waiting'));
    expect(s.latest(10).map((r) => r.requestId)).toEqual(['a', 'b']);
    await s.close();
  });
});

describe('the receipts kept while the bridge runs', () => {
  it('are the newest `keep` (KEEP): ended sends past it are forgotten as new ones come, in memory and in the log; sends still waiting stay', async () => {
    await using dir = await tempDir('collie-receipts-');
    const s = await ReceiptStore.open(dir.path, Date.now, 20);
    await s.put({ receipt: receipt('waits', 'held', false), text: 'still to type' });
    for (let i = 0; i < 100; i++) await s.put({ receipt: { ...receipt(`r${i}`, 'typed', true), createdAt: 10 + i, updatedAt: 10 + i } });
    expect(s.size).toBe(20);
    expect(s.get('r80')).toBeUndefined();
    expect(s.get('r81')?.receipt.state).toBe('typed');
    expect(s.get('r99')?.receipt.state).toBe('typed');
    expect(s.waiting().map((w) => w.receipt.requestId)).toEqual(['waits']);
    // An ended send with text rewrites the log from what is kept.
    await s.put({ receipt: receipt('waits', 'typed', true) });
    await s.compact();
    const lines = (await readFile(join(dir.path, 'sends', 'log.jsonl'), 'utf8')).split('\n').filter(Boolean);
    expect(lines.length).toBe(20);
    await s.close();
  });
  // The 60-minute soak (seed 2026): with the newest 5,000 kept while running, the receipts of
  // the run's first sends were forgotten within the hour, and the same requests sent again (as a
  // phone retries) were typed a second time. Receipts of the last day stay, however many.
  it('keep every receipt of the last day past `keep`, across a reopen too: a request id sent again within a day is known', async () => {
    await using dir = await tempDir('collie-receipts-');
    let t = 1_000_000_000_000;
    const now = () => t;
    const s = await ReceiptStore.open(dir.path, now, 20);
    for (let i = 0; i < 100; i++) await s.put({ receipt: { ...receipt(`r${i}`, 'typed', true), createdAt: t - 60_000 + i, updatedAt: t } });
    expect(s.size).toBe(100);
    expect(s.get('r0')?.receipt.state).toBe('typed');
    await s.close();
    const again = await ReceiptStore.open(dir.path, now, 20);
    expect(again.size).toBe(100);
    // A day on, the oldest go as new ones come, down to the newest `keep`.
    t += KEEP_MS;
    await again.put({ receipt: { ...receipt('next', 'typed', true), createdAt: t, updatedAt: t } });
    expect(again.size).toBe(20);
    expect(again.get('r0')).toBeUndefined();
    expect(again.get('next')?.receipt.state).toBe('typed');
    await again.close();
  });
});
