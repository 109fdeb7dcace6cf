import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChangedFile } from '@collie/protocol';
import { pageChanges } from './page';
import { parseDiff, unquotePath } from './parse-diff';
import { reviewMessage } from './review-message';
import { parseStatus } from './status';

const DIFF = [
  'diff --git a/src/app.ts b/src/app.ts',
  'index 1111111..2222222 100644',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -1,3 +1,3 @@ export function main() {',
  ' const a = 1;',
  '-let b = 2;',
  '+const b = 2;',
  ' return a + b;',
  '\\ No newline at end of file',
  'diff --git a/old name.md b/docs/new.md',
  'similarity index 90%',
  'rename from old name.md',
  'rename to docs/new.md',
  'diff --git a/logo.png b/logo.png',
  'new file mode 100644',
  'index 0000000..3333333',
  'Binary files /dev/null and b/logo.png differ',
  'diff --git "a/caf\\303\\251\\tx.txt" "b/caf\\303\\251\\tx.txt"',
  'deleted file mode 100644',
  '--- "a/caf\\303\\251\\tx.txt"',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-gone',
  '',
].join('\n');

describe('reading git diff output', () => {
  it('files, statuses, renames, binary files, quoted paths and line numbers', () => {
    const files = parseDiff(DIFF);
    expect(files.map((f) => [f.path, f.oldPath, f.status, f.binary, f.additions, f.deletions])).toEqual([
      ['src/app.ts', null, 'modified', false, 1, 1],
      ['docs/new.md', 'old name.md', 'renamed', false, 0, 0],
      ['logo.png', null, 'added', true, 0, 0],
      ['café\tx.txt', null, 'deleted', false, 0, 1],
    ]);
    expect(files[0]?.hunks[0]?.lines).toEqual([
      { kind: 'ctx', old: 1, new: 1, text: 'const a = 1;' },
      { kind: 'del', old: 2, new: null, text: 'let b = 2;' },
      { kind: 'add', old: null, new: 2, text: 'const b = 2;' },
      { kind: 'ctx', old: 3, new: 3, text: 'return a + b;' },
    ]);
    expect(unquotePath('"a\\"b\\\\c"')).toBe('a"b\\c');
  });

  it('never throws on any text, and what it returns fits the wire schema', () => {
    const piece = fc.oneof(fc.string(), fc.constantFrom('diff --git a/x b/x', '@@ -1 +1 @@', '+', '-', ' ', '\\', 'rename from "\\', '--- /dev/null', '+++ b/', 'Binary files ', '@@ -9999999999 +1 @@'));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (lines) => {
        for (const f of parseDiff(lines.join('\n'))) expect(ChangedFile.safeParse({ ...f, staged: false, unstaged: true, cut: 0 }).success).toBe(true);
        parseStatus(lines.join('\0'));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads git status v2: branch, initial repo, renames with their old path, untracked files', () => {
    const out = ['# branch.oid (initial)', '# branch.head main', '1 M. N... 100644 100644 100644 aaa bbb src/a b.ts', '2 R. N... 100644 100644 100644 aaa bbb R100 docs/new.md', 'old name.md', '? notes/todo.txt', ''].join('\0');
    expect(parseStatus(out)).toEqual({
      branch: 'main',
      initial: true,
      entries: [
        { path: 'src/a b.ts', oldPath: null, status: 'modified', staged: true, unstaged: false },
        { path: 'docs/new.md', oldPath: 'old name.md', status: 'renamed', staged: true, unstaged: false },
        { path: 'notes/todo.txt', oldPath: null, status: 'untracked', staged: false, unstaged: true },
      ],
    });
  });

  it('pages whole files while they fit, and cuts a file bigger than a page', () => {
    const big = { path: 'big.txt', oldPath: null, status: 'modified' as const, binary: false, additions: 50, deletions: 0, hunks: [{ header: '@@', lines: Array.from({ length: 50 }, (_, i) => ({ kind: 'add' as const, old: null, new: i + 1, text: `l${i}` })) }] };
    const small = { ...big, path: 'small.txt', additions: 5, hunks: [{ header: '@@', lines: big.hunks[0]!.lines.slice(0, 5) }] };
    const status = { branch: 'main', initial: false, entries: [{ path: 'new.txt', oldPath: null, status: 'untracked' as const, staged: false, unstaged: true }] };
    const first = pageChanges([small, big, small], status, 0, 20);
    expect(first.pages).toBe(3);
    expect(first.files.map((f) => [f.path, f.cut])).toEqual([['small.txt', 0]]);
    const second = pageChanges([small, big, small], status, 1, 20);
    expect(second.files.map((f) => [f.path, f.cut, f.hunks[0]?.lines.length])).toEqual([['big.txt', 30, 20]]);
    expect(pageChanges([small, big, small], status, 2, 20).files.map((f) => f.path)).toEqual(['small.txt', 'new.txt']);
    expect(pageChanges([], status, 99, 20)).toMatchObject({ pages: 1, files: [{ path: 'new.txt', status: 'untracked' }] });
  });

  it('makes one message of the comments, in file and line order', () => {
    expect(
      reviewMessage([
        { path: 'src/b.ts', line: 9, side: 'new', code: '  return x;', text: 'why return here?' },
        { path: 'src/a.ts', line: 3, side: 'old', code: '', text: ' keep this one ' },
      ]),
    ).toBe('Review comments on your changes (2):\n\nsrc/a.ts:3 (a removed line)\nkeep this one\n\nsrc/b.ts:9\n> return x;\nwhy return here?');
  });
});
