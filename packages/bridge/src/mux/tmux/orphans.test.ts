import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markAlive, ownMark, processMark } from './orphans';

describe('control client owner marks', () => {
  it('this process is marked by its pid and start time, and its mark is alive', () => {
    const mark = ownMark();
    expect(mark).toMatch(new RegExp(`^${process.pid}:\\d+$`));
    expect(markAlive(mark!)).toBe(true);
  });

  it('the same pid with another start time is another process: not alive', () => {
    const start = Number(processMark(process.pid)!.split(':')[1]);
    expect(markAlive(`${process.pid}:${start + 1}`)).toBe(false);
  });

  it('any string is judged without throwing; only a well-formed live mark is alive', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const alive = markAlive(s);
        if (alive) expect(s).toMatch(/^\d+:\d+$/);
      }),
    );
    for (const bad of ['', ':', '12', 'x:1', `${process.pid}:`, `${process.pid}:1:2`, '../1:2']) expect(markAlive(bad)).toBe(false);
  });
});
