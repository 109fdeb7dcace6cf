import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UploadType } from '@collie/protocol';
import { sniffType } from './sniff';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : p)));

describe('file types by their bytes', () => {
  it('knows images, PDF and text by their bytes, whatever the name says', () => {
    expect(sniffType(bytes([0x89], 'PNG\r\n\x1a\n', [0, 0]))).toBe('image/png');
    expect(sniffType(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffType(bytes('GIF89a...'))).toBe('image/gif');
    expect(sniffType(bytes('RIFF\x10\x00\x00\x00WEBPVP8 '))).toBe('image/webp');
    expect(sniffType(bytes('%PDF-1.7\n'))).toBe('application/pdf');
    expect(sniffType(new TextEncoder().encode('const x = 1; // é ✓\n'))).toBe('text/plain');
  });

  it('refuses executables, archives, NUL-bearing and broken UTF-8 bytes', () => {
    expect(sniffType(bytes('\x7fELF\x02\x01\x01', [0, 0, 0]))).toBeNull();
    expect(sniffType(bytes('PK\x03\x04', [20, 0]))).toBeNull();
    expect(sniffType(bytes('hello', [0], 'world'))).toBeNull();
    expect(sniffType(bytes([0xc3, 0x28]))).toBeNull();
    expect(sniffType(new Uint8Array(0))).toBeNull();
    expect(sniffType(bytes('RIFF\x10\x00\x00\x00WAVEfmt '))).toBeNull(); // RIFF, but not WebP (and NUL bytes)
  });

  it('never throws, and only says one of the types it knows', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        const t = sniffType(b);
        expect(t === null || UploadType.options.includes(t)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
