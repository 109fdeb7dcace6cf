import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../src/index';

/**
 * A clone alone must pass its own tests: no tracked file may name a path outside the
 * repository. Found by a stranger's clone, which failed 49 tests reading a corpus that lived
 * in a folder beside the repository.
 *
 * Three shapes of a path are checked, each resolved from the file's own folder (where
 * `new URL(…, import.meta.url)` and `join(here, …)` resolve them): a run of `../` in a
 * string, a run of `'..'` arguments, and an absolute path into the workplace.
 */
const ABSOLUTE = /(?:^|[\s'"`(=])(\/work\/[\w./-]+)/g;
const DOTTED = /(?<![\w./<>])(?:\.\.\/)+(?!\.\.\/)[\w-][\w./-]*/g;
const ARGS = /(?:['"]\.\.['"]\s*,\s*)+['"][\w.-]+['"]/g;

export function outsidePaths(file: string, text: string, root: string): string[] {
  const here = dirname(join(root, file));
  const found: string[] = [];
  const outside = (p: string) => {
    const rel = relative(root, resolve(here, p));
    return rel === '..' || rel.startsWith(`..${sep}`);
  };
  for (const m of text.matchAll(ABSOLUTE)) found.push(m[1]!);
  for (const m of text.matchAll(DOTTED)) if (outside(m[0])) found.push(m[0]);
  for (const m of text.matchAll(ARGS)) {
    const parts = [...m[0].matchAll(/['"]([^'"]+)['"]/g)].map((x) => x[1]!);
    if (outside(parts.join('/'))) found.push(m[0]);
  }
  return found;
}

function tracked(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\0')
    // This file's own examples name outside paths on purpose.
    .filter((f) => f && f !== 'packages/testkit/test/self-contained.test.ts' && !f.startsWith('packages/testkit/corpus/') && !/\.(png|jpe?g|gif|ico|woff2?|tgz)$/.test(f) && f !== 'package-lock.json');
}

describe('the repository is self-contained', () => {
  it('finds the three shapes of an outside path, and lets inside ones be', () => {
    const root = '/r';
    expect(outsidePaths('a/b/x.ts', "new URL('../../../elsewhere/x', import.meta.url)", root)).toEqual(['../../../elsewhere/x']);
    expect(outsidePaths('a/b/x.ts', "new URL('../../corpus/x', import.meta.url)", root)).toEqual([]);
    expect(outsidePaths('x.mjs', "patterns: ['../../*/src/*'], and `<repo>/../<repo>-worktrees`", root)).toEqual([]);
    expect(outsidePaths('a/x.mjs', "join(here, '..', '..', 'elsewhere')", root)).toEqual(["'..', '..', 'elsewhere'"]);
    expect(outsidePaths('a/x.mjs', "join(here, '..', 'corpus')", root)).toEqual([]);
    expect(outsidePaths('docs/x.md', 'run with COLLIE_FAKE_SCREENS=/work/elsewhere/fixtures', root)).toEqual(['/work/elsewhere/fixtures']);
  });

  it('no tracked file names a path outside the repository', () => {
    const offenders: string[] = [];
    for (const file of tracked()) {
      let text: string;
      try {
        text = readFileSync(join(repoRoot, file), 'utf8');
      } catch {
        continue; // a file deleted in the work tree but not yet in git
      }
      for (const p of outsidePaths(file, text, repoRoot)) offenders.push(`${file}: ${p}`);
    }
    expect(offenders).toEqual([]);
  });
});
