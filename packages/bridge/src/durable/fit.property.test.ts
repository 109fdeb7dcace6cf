import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitItem, fitQuestion, LIMITS, WireItem, WireQuestion } from '@collie/protocol';
import { LineSplitter } from './ndjson';

// C0 but newline and tab, DEL, C1, bidi overrides: nothing of these reaches the phone.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.constantFrom('<script>alert(1)</script>', 'javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,<b>x</b>', '\u0000\u001b[31mred\u202e', 'https://ok.example.com/a?b=c', 'https://user:pw@evil.example.com', 'https://x.example.com/"><img src=x>'),
);

describe('the reader of wire v1 items and questions (fit)', () => {
  it('never lets a control byte through, keeps to the limits, and links only https', () => {
    fc.assert(
      fc.property(fc.constantFrom('user', 'reply', 'thinking', 'notice', 'markdown', 'code', 'link', 'tool'), hostile, hostile, (kind, a, b) => {
        const item = WireItem.parse({ kind, id: 'i', at: 1, text: a, url: a, label: b, name: b, input: b, output: a, status: 'done', language: b });
        const f = fitItem(item);
        for (const v of Object.values(f)) if (typeof v === 'string') expect(CONTROL.test(v)).toBe(false);
        if (f.kind === 'link') {
          expect(f.href === null || /^https:\/\/[A-Za-z0-9]/.test(f.href)).toBe(true);
          if (f.href) expect(f.href).not.toMatch(/[\s"'<>\\`@]/);
        } else expect(f.href).toBeNull();
        if ('text' in f) expect(f.text.length).toBeLessThanOrEqual(LIMITS.itemText);
      }),
      { numRuns: 500 },
    );
  });

  it('a 10 MB item is cut to its limit and flagged', () => {
    const f = fitItem(WireItem.parse({ kind: 'reply', id: 'big', at: 1, text: 'x'.repeat(10 * 1024 * 1024) }));
    expect(f.kind === 'reply' && f.text.length).toBe(LIMITS.itemText);
    expect(f.shortened).toBe(true);
  });

  it('questions: counts and lengths cut, flagged "shortened", unknown kinds not answerable', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), hostile, fc.constantFrom('permission', 'choice', 'form', 'signature'), (n, words, kind) => {
        const options = Array.from({ length: n }, (_, i) => ({ id: `o${i}`, label: words, action: 'allow' }));
        const fields = Array.from({ length: n }, (_, i) => ({ kind: 'toggle', id: `f${i}`, label: words }));
        const q = fitQuestion(WireQuestion.parse({ kind, id: 'q', title: words, at: 1, options, fields }));
        expect(CONTROL.test(q.title)).toBe(false);
        if (q.kind === 'permission') expect(q.options.length).toBeLessThanOrEqual(6);
        if (q.kind === 'choice') expect(q.options.length).toBeLessThanOrEqual(8);
        if (q.kind === 'form') expect(q.fields.length).toBeLessThanOrEqual(6);
        if ((kind === 'permission' && n > 6) || (kind === 'choice' && n > 8) || (kind === 'form' && n > 6)) expect(q.shortened).toBe(true);
        expect(q.answerable).toBe(kind !== 'signature');
      }),
      { numRuns: 300 },
    );
  });
});

describe('the event stream splitter', () => {
  it('gives back every line up to the limit, in any chunking, and drops longer ones whole', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 40 }).map((s) => s.replace(/\n/g, '')), { maxLength: 30 }), fc.array(fc.integer({ min: 1, max: 17 }), { minLength: 1 }), (lines, cuts) => {
        const max = 20;
        const got: string[] = [];
        let dropped = 0;
        const s = new LineSplitter(max, (l) => got.push(l), () => dropped++);
        const bytes = Buffer.from(lines.map((l) => `${l}\n`).join(''));
        let at = 0;
        for (let i = 0; at < bytes.length; i++) {
          const n = cuts[i % cuts.length]!;
          s.push(bytes.subarray(at, at + n));
          at += n;
        }
        const fits = lines.filter((l) => l !== '' && Buffer.byteLength(l) <= max);
        expect(got).toEqual(fits);
        expect(dropped).toBe(lines.filter((l) => Buffer.byteLength(l) > max).length);
      }),
      { numRuns: 300 },
    );
  });
});
