import { appendFile, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OUTCOME, type SendReceipt } from '@collie/protocol';
import { tempDir } from '@collie/testkit';
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

  it('a final receipt forgets the text it typed', async () => {
    await using dir = await tempDir('collie-receipts-');
    const s = await ReceiptStore.open(dir.path);
    await s.put({ receipt: receipt('x', 'typed', true), text: 'secret-ish text' });
    await s.close();
    expect(await readFile(join(dir.path, 'sends', 'log.jsonl'), 'utf8')).not.toContain('secret-ish');
  });
});
