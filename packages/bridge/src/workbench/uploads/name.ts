import type { UploadType } from '@collie/protocol';

/** A file name from the phone, checked and made safe to type; or why it is refused. */
export type NameCheck = { ok: true; name: string } | { ok: false; reason: string };

/** The extension a stored upload gets from its bytes (a `.png` name on JPEG bytes becomes `.jpg`). */
const EXTENSION: Record<UploadType, string | null> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  // Text keeps its own extension (`.ts`, `.log`), or `.txt` when it has none.
  'text/plain': null,
};

const MAX_NAME = 200;
const MAX_STEM = 60;

/**
 * Check a file name the phone sent, then sanitise it. Refused outright (a name that tries
 * these is hostile or broken, and the phone says so): a path (`/`, `\`), a leading dot
 * (`..`, hidden files), control characters (NUL included), and Unicode format characters
 * (right-to-left overrides and marks, zero-width joiners: they make `gnp.exe` read as
 * `exe.png`). What is left is reduced to ASCII letters, digits, `.`, `_` and `-`, so the path
 * the agent gets needs no quoting in any shell or TUI; the extension follows the bytes.
 *
 * @example
 * checkUploadName('Screenshot 2026-12-03 at 10.15.png', 'image/png'); // { ok: true, name: 'Screenshot_2026-12-03_at_10.15.png' }
 * checkUploadName('../../etc/passwd', 'text/plain'); // { ok: false, reason: … }
 */
export function checkUploadName(raw: string, type: UploadType): NameCheck {
  if (raw.length === 0 || raw.length > MAX_NAME) return { ok: false, reason: `a file name is 1 to ${MAX_NAME} characters` };
  if (/[/\\]/.test(raw)) return { ok: false, reason: 'a file name may not hold a path (/ or \\)' };
  if (/[\u0000-\u001f\u007f-\u009f]/.test(raw)) return { ok: false, reason: 'a file name may not hold control characters' };
  if (/[\p{Cf}\p{Zl}\p{Zp}]/u.test(raw)) return { ok: false, reason: 'a file name may not hold direction marks or invisible characters' };
  if (raw.startsWith('.')) return { ok: false, reason: 'a file name may not start with a dot' };
  const dot = raw.lastIndexOf('.');
  const stemRaw = dot > 0 ? raw.slice(0, dot) : raw;
  const extRaw = dot > 0 ? raw.slice(dot + 1) : '';
  const stem = ascii(stemRaw).slice(0, MAX_STEM).replace(/^[._-]+|[._-]+$/g, '') || 'file';
  const wanted = EXTENSION[type];
  const ext = wanted ?? (/^[A-Za-z0-9]{1,10}$/.test(extRaw) ? extRaw.toLowerCase() : 'txt');
  return { ok: true, name: `${stem}.${ext}` };
}

/** Letters with accents lose them; anything else outside `[A-Za-z0-9._-]` becomes `_` (runs of it one), and `..` one dot. */
function ascii(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/\.{2,}/g, '.');
}
