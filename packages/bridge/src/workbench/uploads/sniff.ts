import type { UploadType } from '@collie/protocol';

const starts = (bytes: Uint8Array, sig: readonly number[], at = 0): boolean => sig.every((b, i) => bytes[at + i] === b);
const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

/**
 * What a file is, from its bytes alone (a name or a browser's content type is what the sender
 * says; the bytes are what the agent will read). Images by their magic numbers (PNG, JPEG, GIF,
 * WebP), PDF by `%PDF-`, text as valid UTF-8 with no NUL and few other control bytes. Anything
 * else is null: refused.
 *
 * @example
 * sniffType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])); // 'image/png'
 */
export function sniffType(bytes: Uint8Array): UploadType | null {
  if (starts(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts(bytes, ascii('GIF87a')) || starts(bytes, ascii('GIF89a'))) return 'image/gif';
  if (starts(bytes, ascii('RIFF')) && starts(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (starts(bytes, ascii('%PDF-'))) return 'application/pdf';
  return isText(bytes) ? 'text/plain' : null;
}

/** UTF-8 that decodes strictly, without NUL, and with control bytes other than tab, LF, CR, FF and ESC under 1 in 100. */
function isText(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  let control = 0;
  for (const b of bytes) {
    if (b === 0) return false;
    if (b < 0x20 && b !== 9 && b !== 10 && b !== 13 && b !== 12 && b !== 27) control++;
  }
  return control * 100 <= bytes.length;
}
