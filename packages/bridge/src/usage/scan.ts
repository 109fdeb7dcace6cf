import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import type { UsageTally } from './tally';

/** Bytes read at a time; a line longer than this is skipped (no agent writes usage on one). */
const CHUNK = 1024 * 1024;

/**
 * Feeds the lines of `path` up to `end` (where its follower started reading) to `tally`: once,
 * when a transcript is opened, so the session's totals cover all of it. Lines after `end` come
 * from the follower as they land.
 */
export async function scanFile(path: string, end: number, tally: UsageTally): Promise<void> {
  const fh = await open(path, 'r');
  try {
    let pos = 0;
    let rest = '';
    const buf = Buffer.allocUnsafe(CHUNK);
    const utf8 = new StringDecoder('utf8');
    while (pos < end) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(CHUNK, end - pos), pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      const text = rest + utf8.write(buf.subarray(0, bytesRead));
      const lines = text.split('\n');
      rest = lines.pop() ?? '';
      if (rest.length > CHUNK) rest = '';
      for (const l of lines) tally.line(l);
    }
    if (rest !== '') tally.line(rest);
  } finally {
    await fh.close();
  }
}
