import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './write-file-atomic';

let root: string;
const mode = (path: string) => statSync(path).mode & 0o777;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'collie-state-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('writes the data with mode 0600 and leaves no temp file', async () => {
    const file = join(root, 'instances.json');
    await writeFileAtomic(file, '{"a":1}');
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}');
    expect(mode(file)).toBe(0o600);
    expect(readdirSync(root)).toEqual(['instances.json']);
  });

  it('takes away the temp files a process killed mid-write left, and no other', async () => {
    const file = join(root, 'devices.json');
    // A pid no process has: the first from the top that signal 0 finds gone.
    let gone = 4_194_303;
    for (; ; gone--) {
      try {
        process.kill(gone, 0);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ESRCH') break;
      }
    }
    const left = [`.devices.json.${gone}.0123456789ab.tmp`, `.devices.json.${process.pid}.0123456789ab.tmp`, `.other.json.${gone}.0123456789ab.tmp`, `.devices.json.${gone}.tmp`];
    for (const name of left) writeFileSync(join(root, name), '');
    await writeFileAtomic(file, '{}');
    expect(readdirSync(root).sort()).toEqual(['devices.json', ...left.slice(1)].sort());
  });

  it('replaces a file, bytes and mode, whatever the umask', async () => {
    const file = join(root, 'seen.json');
    writeFileSync(file, 'old old old');
    chmodSync(file, 0o644);
    const umask = process.umask(0o077);
    try {
      await writeFileAtomic(file, new Uint8Array([110, 101, 119]), 0o640);
    } finally {
      process.umask(umask);
    }
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(mode(file)).toBe(0o640);
  });

  it('cleans up its temp file when the rename fails', async () => {
    const target = join(root, 'target');
    mkdirSync(target);
    writeFileSync(join(target, 'keep'), '');
    await expect(writeFileAtomic(target, 'x')).rejects.toThrow();
    expect(readdirSync(root)).toEqual(['target']);
  });

  it('leaves one whole version when writers race', async () => {
    const file = join(root, 'race.json');
    const versions = Array.from({ length: 20 }, (_, i) => String(i).repeat(10_000));
    await Promise.all(versions.map((v) => writeFileAtomic(file, v)));
    expect(versions).toContain(readFileSync(file, 'utf8'));
    expect(readdirSync(root)).toEqual(['race.json']);
  });
});
