import { readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The files the house rules (import-cycles.test.ts, file-length.test.ts) look at: every
// non-test .ts/.tsx source under packages/*/src.

/** The repository's top folder. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(path).isDirectory()) return walk(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every non-test source file of every package, absolute paths. */
export function sourceFiles(root = repoRoot): string[] {
  return readdirSync(join(root, 'packages')).flatMap((p) => {
    const src = join(root, 'packages', p, 'src');
    try {
      return statSync(src).isDirectory() ? walk(src) : [];
    } catch {
      return [];
    }
  });
}
