import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PASTE_PLACEHOLDER } from '../harness/claude/index';
import { arrived, sanitizeText, summarize } from './sanitize';

describe('text for the box', () => {
  it('removes control bytes and keeps everything printable, CJK, emoji and RTL included', () => {
    expect(sanitizeText('a\x1b[31mb\x07c\x03\r\nd\te\u0085')).toBe('a[31mbc\nd  e');
    expect(sanitizeText('日本語 😀 שלום مرحبا')).toBe('日本語 😀 שלום مرحبا');
  });

  it('for any text: no control byte survives, and printable text is untouched', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const out = sanitizeText(s);
        expect(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(out)).toBe(false);
        expect(sanitizeText(out)).toBe(out);
      }),
    );
  });

  it('knows the text arrived when the box shows it, wrapped, or as a paste placeholder', () => {
    expect(arrived('hello   world', 'hello world', PASTE_PLACEHOLDER)).toBe(true);
    expect(arrived('[Pasted text #1 +12 lines]', 'x\n'.repeat(12), PASTE_PLACEHOLDER)).toBe(true);
    expect(arrived('hello', 'hello world', PASTE_PLACEHOLDER)).toBe(false);
    expect(arrived(null, 'x', PASTE_PLACEHOLDER)).toBe(false);
    expect(summarize('a'.repeat(200)).length).toBe(80);
  });
});
