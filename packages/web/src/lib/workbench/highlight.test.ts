import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { highlight, langOf } from './highlight';

describe('diff line colours', () => {
  it('keywords, strings, numbers and comments of a TypeScript line', () => {
    expect(highlight('  const ok = check("a // b", 42); // why', 'ts')).toEqual([
      { kind: 'plain', text: '  ' },
      { kind: 'kw', text: 'const' },
      { kind: 'plain', text: ' ok = check(' },
      { kind: 'str', text: '"a // b"' },
      { kind: 'plain', text: ', ' },
      { kind: 'num', text: '42' },
      { kind: 'plain', text: '); ' },
      { kind: 'com', text: '// why' },
    ]);
    expect(highlight('def f(): # note', 'py').map((t) => t.kind)).toEqual(['kw', 'plain', 'com']);
    expect(langOf('src/a.tsx')).toBe('ts');
    expect(langOf('README')).toBeNull();
    expect(highlight('anything', null)).toEqual([{ kind: 'plain', text: 'anything' }]);
  });

  it('a name every object has is no language: plain, never Object’s own function', () => {
    expect(langOf('src/x.constructor')).toBeNull();
    for (const lang of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(highlight('const a = 1', lang)).toEqual([{ kind: 'plain', text: 'const a = 1' }]);
  });

  it('always joins back into the line, whatever it holds', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'if', ' ', '"', "'", '`', '\\', '/', '#', '1', '.', '_', 'é') }), fc.constantFrom('ts', 'py', 'go', 'rs', 'sh', 'css', null), (line, lang) => {
        expect(highlight(line, lang).map((t) => t.text).join('')).toBe(line);
      }),
      { numRuns: 3000 },
    );
  });
});
