import { describe, expect, it } from 'vitest';
import { joinRows } from './join-rows';

describe('joinRows', () => {
  it('rejoins word-wrapped rows with the space the wrap swallowed', () => {
    // Width 30: "forty" (5) did not fit after "a line that wraps here" (column 2 + 22 = 24 + 1 + 5 = 30).
    expect(
      joinRows(
        [
          { text: 'a line that wraps here', column: 2 },
          { text: 'forty more', column: 2 },
        ],
        30,
      ),
    ).toBe('a line that wraps here forty more');
  });

  it('keeps a break where the next word would clearly have fitted: a typed newline', () => {
    expect(
      joinRows(
        [
          { text: 'first', column: 2 },
          { text: 'second', column: 2 },
        ],
        80,
      ),
    ).toBe('first\nsecond');
  });

  it('keeps blank rows inside the text and drops them around it', () => {
    expect(
      joinRows(
        [
          { text: '', column: 2 },
          { text: 'a', column: 2 },
          { text: '   ', column: 2 },
          { text: 'b', column: 2 },
          { text: '', column: 2 },
        ],
        80,
      ),
    ).toBe('a\n\nb');
  });

  it('returns an empty string for an empty box', () => {
    expect(joinRows([{ text: '   ', column: 2 }], 80)).toBe('');
    expect(joinRows([], 80)).toBe('');
  });
});
