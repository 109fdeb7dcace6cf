import { BEGIN, END } from './text';

/** What is on disk at a target path, as the edge read it. */
export type FileState = { kind: 'absent' } | { kind: 'file'; text: string } | { kind: 'symlink' } | { kind: 'unreadable'; why: string };

/** What to do with one file. */
export type Step = { do: 'write'; text: string; created: boolean } | { do: 'remove' } | { do: 'none' } | { do: 'refuse'; reason: string };

export type Where = { ok: true; begin: number; end: number } | { ok: true; begin: -1; end: -1 } | { ok: false; reason: string };

/** Line indexes of the block's markers; damaged when they are not exactly one pair in order. */
export function findBlock(text: string): Where {
  const lines = text.split('\n');
  const begins = lines.flatMap((l, i) => (l.trim() === BEGIN ? [i] : []));
  const ends = lines.flatMap((l, i) => (l.trim() === END ? [i] : []));
  const loose = lines.some((l) => /<!-- collie:walky-talky\b/.test(l) && l.trim() !== BEGIN && l.trim() !== END);
  if (begins.length === 0 && ends.length === 0 && !loose) return { ok: true, begin: -1, end: -1 };
  if (loose || begins.length !== 1 || ends.length !== 1 || ends[0]! < begins[0]!) return { ok: false, reason: 'damaged markers' };
  return { ok: true, begin: begins[0]!, end: ends[0]! };
}

function refusal(f: FileState): string | null {
  if (f.kind === 'symlink') return 'a symlink';
  if (f.kind === 'unreadable') return `cannot read it (${f.why})`;
  return null;
}

/** Put `block` into a shared file: appended when absent, replaced in place when present. */
export function installBlock(f: FileState, block: string): Step {
  const no = refusal(f);
  if (no) return { do: 'refuse', reason: no };
  if (f.kind === 'absent') return { do: 'write', text: `${block}\n`, created: true };
  if (f.kind !== 'file') return { do: 'none' };
  const where = findBlock(f.text);
  if (!where.ok) return { do: 'refuse', reason: where.reason };
  let next: string;
  if (where.begin < 0) {
    const base = f.text === '' ? '' : f.text.endsWith('\n') ? `${f.text}\n` : `${f.text}\n\n`;
    next = `${base}${block}\n`;
  } else {
    const lines = f.text.split('\n');
    next = [...lines.slice(0, where.begin), block, ...lines.slice(where.end + 1)].join('\n');
  }
  return next === f.text ? { do: 'none' } : { do: 'write', text: next, created: false };
}

/** Cut the block out, and the blank line that was put before it; the rest stays as written. */
export function removeBlock(f: FileState): Step {
  const no = refusal(f);
  if (no) return { do: 'refuse', reason: no };
  if (f.kind !== 'file') return { do: 'none' };
  const where = findBlock(f.text);
  if (!where.ok) return { do: 'refuse', reason: where.reason };
  if (where.begin < 0) return { do: 'none' };
  const lines = f.text.split('\n');
  const before = lines.slice(0, where.begin);
  if (before.length > 0 && before[before.length - 1] === '') before.pop();
  const after = lines.slice(where.end + 1);
  const next = [...before, ...after].join('\n');
  return next.trim() === '' ? { do: 'remove' } : { do: 'write', text: next.endsWith('\n') ? next : `${next}\n`, created: false };
}

/** A file that is all ours (Claude's skill file). */
export function installWhole(f: FileState, text: string): Step {
  const no = refusal(f);
  if (no) return { do: 'refuse', reason: no };
  if (f.kind === 'file' && f.text === text) return { do: 'none' };
  return { do: 'write', text, created: f.kind === 'absent' };
}

export function removeWhole(f: FileState): Step {
  const no = refusal(f);
  if (no) return { do: 'refuse', reason: no };
  return f.kind === 'file' ? { do: 'remove' } : { do: 'none' };
}

export type Status = 'installed' | 'stale' | 'absent' | 'refused';

/** Where a copy stands against this build's text. */
export function statusOf(f: FileState, whole: boolean, want: string): { status: Status; reason?: string } {
  const no = refusal(f);
  if (no) return { status: 'refused', reason: no };
  if (f.kind !== 'file') return { status: 'absent' };
  if (whole) return { status: f.text === want ? 'installed' : 'stale' };
  const where = findBlock(f.text);
  if (!where.ok) return { status: 'refused', reason: where.reason };
  if (where.begin < 0) return { status: 'absent' };
  const block = f.text.split('\n').slice(where.begin, where.end + 1).join('\n');
  return { status: block === want ? 'installed' : 'stale' };
}
