import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '@collie/testkit';
import { TapJournal } from './tap-journal';

describe('the durable tap journal while the bridge runs', () => {
  it('holds the newest `keep` taps (KEEP): older ones are forgotten as new ones come, as a reopen forgets them', async () => {
    await using dir = await tempDir('collie-taps-');
    const j = await TapJournal.open(dir.path, 20);
    for (let i = 0; i < 100; i++) await j.put({ requestId: `t${i}`, agent: 'a', path: '/x', status: 'final', result: null, at: i });
    expect(j.size).toBe(20);
    expect(j.get('t79')).toBeUndefined();
    expect(j.get('t80')?.status).toBe('final');
    await j.close();
    const again = await TapJournal.open(dir.path, 20);
    expect(again.get('t80')?.status).toBe('final');
    expect(again.get('t79')).toBeUndefined();
    expect((await readFile(join(dir.path, 'durable', 'taps.jsonl'), 'utf8')).split('\n').filter(Boolean)).toHaveLength(20);
    await again.close();
  });
  it('keeps every tap of the last day past `keep`: a request id sent again within a day gets its result', async () => {
    await using dir = await tempDir('collie-taps-');
    const j = await TapJournal.open(dir.path, 20);
    const at = Date.now() - 60_000;
    for (let i = 0; i < 100; i++) await j.put({ requestId: `d${i}`, agent: 'a', path: '/x', status: 'final', result: null, at: at + i });
    expect(j.size).toBe(100);
    await j.close();
    const again = await TapJournal.open(dir.path, 20);
    expect(again.get('d0')?.status).toBe('final');
    expect(again.size).toBe(100);
    await again.close();
  });
});
