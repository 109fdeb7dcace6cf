import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot, sourceFiles } from './source-files';

// No import circles in any package's source: every arrow between two files points one way,
// `import type` included (a type two files share lives in a third file both import).

function resolveImport(from: string, spec: string, known: Set<string>): string | null {
  const base = resolve(dirname(from), spec.replace(/\.(m?js|tsx?)$/, ''));
  for (const c of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) if (known.has(c)) return c;
  return null;
}

/** Each source file's relative imports (static, `import type`, re-exports, dynamic), resolved. */
export function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((f) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(f, 'utf8'), true, true);
      const to = importedFiles.filter((i) => i.fileName.startsWith('.')).map((i) => resolveImport(f, i.fileName, known));
      return [f, [...new Set(to.filter((t): t is string => t !== null))]];
    }),
  );
}

/** The strongly connected components with more than one file (or a file importing itself). */
export function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('import circles', () => {
  it('finds a circle through import type and an index file, and none in a line', () => {
    const g = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c/index.ts']],
      ['c/index.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(circles(g)).toEqual([['a.ts', 'b.ts', 'c/index.ts']]);
    expect(circles(new Map([['a.ts', ['b.ts']], ['b.ts', []]]))).toEqual([]);
  });

  it('none in packages/*/src', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const found = circles(importGraph(files)).map((c) => c.map((f) => relative(repoRoot, f)));
    expect(found).toEqual([]);
  });
});
