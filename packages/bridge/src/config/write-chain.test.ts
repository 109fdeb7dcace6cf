import { describe, expect, it } from 'vitest';
import { WriteChain } from './write-chain';

describe('WriteChain', () => {
  it('runs jobs one after the other, in order, and goes on after a failed one', async () => {
    const chain = new WriteChain();
    const seen: string[] = [];
    const slow = (name: string, ms: number) => () => new Promise<void>((r) => setTimeout(() => { seen.push(name); r(); }, ms));
    const a = chain.run(slow('a', 30));
    const b = chain.run(async () => { seen.push('b'); throw new Error('disk full'); });
    const c = chain.run(slow('c', 1));
    await expect(b).rejects.toThrow('disk full');
    await Promise.all([a, c]);
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('drain waits for jobs queued while it waits', async () => {
    const chain = new WriteChain();
    const seen: string[] = [];
    void chain.run(async () => {
      await new Promise((r) => setTimeout(r, 10));
      seen.push('first');
      void chain.run(async () => { await new Promise((r) => setTimeout(r, 10)); seen.push('queued later'); });
    });
    await chain.drain();
    expect(seen).toEqual(['first', 'queued later']);
  });
});
