import { describe, expect, it } from 'vitest';
import { screenRows } from './screen-rows';

const text = (rows: ReturnType<typeof screenRows>) => rows.map((r) => r.map((s) => s.text).join(''));

describe('screenRows', () => {
  it('drops the blank rows under the last text, keeping the cursor row', () => {
    expect(text(screenRows(['$ ls', 'a b', '', '', ''], null))).toEqual(['$ ls', 'a b']);
    expect(text(screenRows(['$ ls', '', '$ ', '', ''], 3))).toEqual(['$ ls', '', '$ ', '']);
    expect(text(screenRows(['', ''], null))).toEqual([]);
    expect(text(screenRows(['  ⎿  ok'], null))).toEqual(['  └  ok']);
  });
});
