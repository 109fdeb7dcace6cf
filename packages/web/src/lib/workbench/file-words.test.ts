import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crumbs, sizeWords } from './file-words';

describe('file words', () => {
  it('says sizes', () => {
    expect(sizeWords(20)).toBe('20 B');
    expect(sizeWords(4300)).toBe('4.2 KB');
    expect(sizeWords(1.5 * 1024 * 1024)).toBe('1.5 MB');
  });

  it('makes crumbs from the root down, the last one the path itself (property)', () => {
    expect(crumbs('/home/a/shop', 'src/lib')).toEqual([
      { name: 'shop', path: '' },
      { name: 'src', path: 'src' },
      { name: 'lib', path: 'src/lib' },
    ]);
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[^/]{1,8}$/), { maxLength: 6 }), (parts) => {
        const c = crumbs('/r', parts.join('/'));
        expect(c.length).toBe(parts.length + 1);
        expect(c.at(-1)?.path).toBe(parts.join('/'));
      }),
    );
  });
});
