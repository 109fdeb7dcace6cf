import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drawable } from './terminal-glyphs';

describe('drawable', () => {
  it('draws ⎿ as └ and leaves everything else, escapes included, as it was', () => {
    expect(drawable('  ⎿  Done (3 tool uses)')).toBe('  └  Done (3 tool uses)');
    expect(drawable('\x1b[2m⏸ plan mode\x1b[0m ✻ │╭─╮')).toBe('\x1b[2m⏸ plan mode\x1b[0m ✻ │╭─╮');
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(drawable(s).length).toBe(s.length);
      }),
    );
  });
});
