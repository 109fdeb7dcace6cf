import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../src';

test('tempDir is private and removed with its contents on dispose', async () => {
  let path = '';
  {
    await using dir = await tempDir('collie-kit-');
    path = dir.path;
    expect(path).toMatch(/collie-kit-/);
    expect(statSync(path).mode & 0o777).toBe(0o700);
    writeFileSync(join(path, 'file'), 'x');
  }
  expect(existsSync(path)).toBe(false);
});
