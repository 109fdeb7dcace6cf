import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UploadType } from '@collie/protocol';
import { checkUploadName } from './name';

const SAFE = /^[A-Za-z0-9][A-Za-z0-9._-]*\.[a-z0-9]{1,10}$/;

describe('upload names', () => {
  it('refuses hostile names with their reason', () => {
    expect(checkUploadName('../../etc/passwd', 'text/plain')).toEqual({ ok: false, reason: 'a file name may not hold a path (/ or \\)' });
    expect(checkUploadName('..', 'text/plain')).toEqual({ ok: false, reason: 'a file name may not start with a dot' });
    expect(checkUploadName('a\u0000.png', 'image/png')).toEqual({ ok: false, reason: 'a file name may not hold control characters' });
    expect(checkUploadName('invoice\u202Egnp.exe', 'image/png')).toEqual({ ok: false, reason: 'a file name may not hold direction marks or invisible characters' });
    expect(checkUploadName('a\u200Fb.png', 'image/png')).toMatchObject({ ok: false });
    expect(checkUploadName('C:\\Windows\\x.png', 'image/png')).toMatchObject({ ok: false });
    expect(checkUploadName('', 'image/png')).toMatchObject({ ok: false });
    expect(checkUploadName('x'.repeat(201), 'image/png')).toMatchObject({ ok: false });
  });

  it('sanitises the rest, with the extension the bytes say', () => {
    expect(checkUploadName('Screenshot 2026-12-03 at 10.15.png', 'image/png')).toEqual({ ok: true, name: 'Screenshot_2026-12-03_at_10.15.png' });
    expect(checkUploadName('photo.png', 'image/jpeg')).toEqual({ ok: true, name: 'photo.jpg' });
    expect(checkUploadName('Café crème.txt', 'text/plain')).toEqual({ ok: true, name: 'Cafe_creme.txt' });
    expect(checkUploadName('notes', 'text/plain')).toEqual({ ok: true, name: 'notes.txt' });
    expect(checkUploadName('main.TS', 'text/plain')).toEqual({ ok: true, name: 'main.ts' });
    expect(checkUploadName('日本語.pdf', 'application/pdf')).toEqual({ ok: true, name: 'file.pdf' });
    expect(checkUploadName('$(rm -rf ~);.png', 'image/png')).toEqual({ ok: true, name: 'rm_-rf.png' });
  });

  it('any name at all: refused, or a safe single file name', () => {
    const anyChar = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('../', '..', '/', '\\', '\u0000', '\u202E', '.', ' ', '~', '$', '`', "'", '"'));
    fc.assert(
      fc.property(fc.array(anyChar, { maxLength: 6 }).map((a) => a.join('')), fc.constantFrom(...UploadType.options), (raw, type) => {
        const r = checkUploadName(raw, type);
        if (r.ok) {
          expect(r.name).toMatch(SAFE);
          expect(r.name).not.toContain('..');
          expect(r.name.length).toBeLessThanOrEqual(72);
        } else {
          expect(r.reason).toMatch(/^a file name /);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
