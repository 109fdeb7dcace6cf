import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureStateDir } from './state-dir';

let root: string;
const mode = (path: string) => statSync(path).mode & 0o777;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'collie-state-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('ensureStateDir', () => {
  it('creates missing directories with mode 0700', async () => {
    const dir = join(root, 'a', 'b', 'collie');
    await ensureStateDir(dir);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(root, 'a'))).toBe(0o700);
  });

  it('fixes the mode of a directory that exists', async () => {
    const dir = join(root, 'loose');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    await ensureStateDir(dir);
    expect(mode(dir)).toBe(0o700);
  });

  it('refuses a path that is a file, naming it', async () => {
    const file = join(root, 'file');
    writeFileSync(file, 'x');
    await expect(ensureStateDir(file)).rejects.toThrow(`state dir: cannot prepare ${file}`);
  });
});
