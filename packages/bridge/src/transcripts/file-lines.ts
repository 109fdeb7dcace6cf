import type { FileHandle } from 'node:fs/promises';

/** One complete line of a transcript and where it starts. */
export interface FileLine {
  readonly offset: number;
  readonly text: string;
}

/** Read this much at a time going back for History: its lines are parsed in one go, so keep it small. */
export const BACK_CHUNK = 64 * 1024;
/**
 * A line longer than this is not parsed (JSON.parse of it would hold the event loop): it
 * stands as one notice. A pasted screenshot makes a line of a few MB; 16 MB leaves room.
 */
export const MAX_LINE = 16 * 1024 * 1024;

async function readAt(fh: FileHandle, from: number, length: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const { bytesRead } = await fh.read(buf, got, length - got, from + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return buf.subarray(0, got);
}

/** Complete lines of `buf` (which starts at file offset `base` at a line start); the cut tail is left. */
export function splitLines(buf: Buffer, base: number): { lines: FileLine[]; used: number } {
  const lines: FileLine[] = [];
  let start = 0;
  for (let nl = buf.indexOf(10, start); nl >= 0; nl = buf.indexOf(10, start)) {
    if (nl > start) lines.push({ offset: base + start, text: buf.toString('utf8', start, nl) });
    start = nl + 1;
  }
  return { lines, used: start };
}

/** Where the line holding byte `pos - 1` starts: just after the newline before it, else 0. */
export async function lineStart(fh: FileHandle, pos: number): Promise<number> {
  let at = pos;
  while (at > 0) {
    const from = Math.max(0, at - BACK_CHUNK);
    const buf = await readAt(fh, from, at - from);
    const nl = buf.lastIndexOf(10);
    if (nl >= 0) return from + nl + 1;
    at = from;
  }
  return 0;
}

/**
 * Complete lines that end before `before` (a line start, or the end of the last complete
 * line), read backwards about `chunk` bytes at a time: at least one line unless the file's
 * start is reached. `start` is where the first returned line starts: the next call's `before`.
 * A line longer than `MAX_LINE` comes back as `{ text: null }` without being read.
 */
export async function linesBefore(fh: FileHandle, before: number, chunk = BACK_CHUNK): Promise<{ lines: Array<FileLine | { offset: number; text: null }>; start: number }> {
  let size = chunk;
  while (before > 0) {
    const from = Math.max(0, before - size);
    const buf = await readAt(fh, from, before - from);
    // Unless at the file's start, bytes up to the first newline belong to a line begun earlier.
    const first = from === 0 ? 0 : buf.indexOf(10) + 1;
    if (first > 0 && first < buf.length) {
      const { lines } = splitLines(buf.subarray(first), from + first);
      return { lines, start: from + first };
    }
    if (from === 0) return { lines: splitLines(buf, 0).lines, start: 0 };
    if (size >= MAX_LINE) {
      const start = await lineStart(fh, from);
      return { lines: [{ offset: start, text: null }], start };
    }
    size *= 4;
  }
  return { lines: [], start: 0 };
}
