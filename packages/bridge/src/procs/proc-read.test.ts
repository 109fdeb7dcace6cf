import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { READ_MAX, SLICE, fdLinksOf, linkOf, readQuick, readSmall, sliceTurns } from './proc-read';

const dirs: string[] = [];
const fixture = () => {
  const d = mkdtempSync(join(tmpdir(), 'collie-fakeproc-'));
  dirs.push(d);
  return d;
};

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("a process's descriptors", () => {
  it('are read from the real /proc: a file this process opened is listed under its fd', async () => {
    const dir = fixture();
    const path = join(dir, 'held.jsonl');
    writeFileSync(path, '{}\n');
    const fd = openSync(path, 'r');
    try {
      const links = await fdLinksOf(`/proc/${process.pid}`);
      expect(links).toContainEqual({ fd, link: path });
      expect(await linkOf(`/proc/${process.pid}/fd/${fd}`)).toBe(path);
    } finally {
      closeSync(fd);
    }
  });

  it('are none for a process that is gone, and a link that is gone is null', async () => {
    expect(await fdLinksOf(join(fixture(), '999999'))).toEqual([]);
    expect(await linkOf(join(fixture(), '999999', 'cwd'))).toBeNull();
  });

  // The transcript finders read every descriptor of an agent on each look, 200 agents a minute
  // in the soak: through fs/promises that was the bridge's largest churn of native memory.
  it('are read synchronously, SLICE links in a turn of the event loop', async () => {
    const pidDir = fixture();
    mkdirSync(join(pidDir, 'fd'));
    const n = 20 * SLICE;
    for (let fd = 0; fd < n; fd++) symlinkSync(`/tmp/file-${fd}`, join(pidDir, 'fd', String(fd)));
    const turns = sliceTurns.count;
    const links = await fdLinksOf(pidDir);
    expect(links.sort((a, b) => a.fd - b.fd)).toEqual(Array.from({ length: n }, (_, fd) => ({ fd, link: `/tmp/file-${fd}` })));
    // The folder and SLICE - 1 links in the first turn, the rest SLICE a turn after it.
    expect(sliceTurns.count - turns).toBe(n / SLICE);
  });
});

describe('a stat file', () => {
  it('of a process that ended fails as open does, without a stack trace, and leaves the limit as it was', async () => {
    const limit = Error.stackTraceLimit;
    const err = (await readQuick(join(fixture(), '999999', 'stat')).catch((e: unknown) => e)) as NodeJS.ErrnoException;
    expect(err.code).toBe('ENOENT');
    expect(err.stack?.split('\n').length).toBe(1);
    expect(Error.stackTraceLimit).toBe(limit);
  });
});

describe('a file read asynchronously', () => {
  it('is read whole up to its bound, across reads of READ_MAX', async () => {
    const path = join(fixture(), 'environ');
    // Three-byte characters, so a chunk's end falls inside one.
    const text = Array.from({ length: 2000 }, (_, i) => `K${i}=€${i}`).join('\0');
    writeFileSync(path, text);
    expect(Buffer.byteLength(text)).toBeGreaterThan(4 * READ_MAX);
    expect(await readSmall(path, 1024 * 1024)).toBe(text);
    // A command line: its first READ_MAX bytes only.
    expect(Buffer.byteLength(await readSmall(path))).toBe(READ_MAX);
  });

  it('fails as open does for a file that is not there', async () => {
    await expect(readSmall(join(fixture(), 'gone'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
