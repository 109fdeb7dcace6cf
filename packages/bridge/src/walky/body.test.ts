import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyLength, cleanBody, tooLong } from './body';

describe('cleanBody', () => {
  it('never leaves a control byte or a direction mark, and never lets a line start with [walky-talky', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(fc.constantFrom('\u0000', '\u001b', '\u007f', '\u009b', '\r', '\t', '\n', '\u202e', '\u2066', '\u200f', '\u061c', '[walky-talky ', 'a', ' '), fc.string({ minLength: 1, maxLength: 1, unit: 'binary' })) }), (raw) => {
        const out = cleanBody(raw);
        expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
        for (const line of out.split('\n')) expect(line.startsWith('[walky-talky')).toBe(false);
        expect(cleanBody(out)).toBe(out); // cleaning twice changes nothing more
      }),
    );
  });

  it('keeps the words: only what it removes is gone', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', 'é', '😀') }), (raw) => {
        expect(cleanBody(raw).replace(/\s/g, '')).toBe(raw.replace(/\s/g, ''));
      }),
    );
  });

  it('counts characters as a person does, and the limit is 4,000', () => {
    expect(bodyLength('😀é')).toBe(2);
    expect(tooLong('😀'.repeat(4000))).toBe(false);
    expect(tooLong('x'.repeat(4001))).toBe(true);
    expect(cleanBody('a\r\nb\u202e\n[walky-talky wt_x] hi\n\n')).toBe('a\nb\n [walky-talky wt_x] hi');
  });
});
