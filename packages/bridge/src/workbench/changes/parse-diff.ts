import type { ChangedFile, DiffHunk, DiffLine } from '@collie/protocol';

/** A file of `git diff` output, before paging and before the status list adds what it knows. */
export type ParsedFile = Omit<ChangedFile, 'staged' | 'unstaged' | 'cut'>;

/** Git's C-style quoting of a path with special bytes: `"a\tb"`, `"caf\303\251"`. */
export function unquotePath(raw: string): string {
  if (!(raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"'))) return raw;
  const bytes: number[] = [];
  const body = raw.slice(1, -1);
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, b: 8, f: 12, v: 11, a: 7, '"': 34, '\\': 92 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i] ?? '';
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = body[i + 1] ?? '';
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1));
    if (octal) {
      bytes.push(parseInt(octal[0], 8) & 0xff);
      i += 3;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** `--- a/x` / `+++ b/x` to `x`; `/dev/null` to null. */
function sidePath(rest: string, prefix: 'a/' | 'b/'): string | null {
  const raw = rest.replace(/\t$/, '');
  if (raw === '/dev/null') return null;
  const path = unquotePath(raw);
  return path.startsWith(prefix) ? path.slice(2) : path;
}

/** `diff --git a/x b/x`: the path when both sides are the same (the only case without --- / +++ lines that matters: binary or mode-only). */
function headerPath(rest: string): string {
  const m = /^a\/(.*) b\/(.*)$/.exec(rest);
  if (m && m[1] === m[2]) return m[1] ?? rest;
  const q = /^"a\/(.*)" "b\/(.*)"$/.exec(rest);
  if (q) return unquotePath(`"${q[2] ?? ''}"`);
  return m?.[2] ?? rest;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/;

/**
 * Parse `git diff -M --no-color --no-ext-diff` output into files and hunks. Pure and total:
 * any text gives files (possibly none), never a throw; lines it does not know are skipped.
 *
 * @example
 * parseDiff('diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n')[0]?.additions; // 1
 */
export function parseDiff(text: string): ParsedFile[] {
  const files: ParsedFile[] = [];
  let file: ParsedFile | null = null;
  let hunk: DiffHunk | null = null;
  let oldLine = 0;
  let newLine = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('diff --git ')) {
      file = { path: headerPath(line.slice(11)), oldPath: null, status: 'modified', binary: false, additions: 0, deletions: 0, hunks: [] };
      files.push(file);
      hunk = null;
      continue;
    }
    if (!file) continue;
    if (hunk) {
      const push = (l: DiffLine) => hunk?.lines.push(l);
      if (line.startsWith('+')) {
        push({ kind: 'add', old: null, new: newLine++, text: line.slice(1) });
        file.additions++;
        continue;
      }
      if (line.startsWith('-')) {
        push({ kind: 'del', old: oldLine++, new: null, text: line.slice(1) });
        file.deletions++;
        continue;
      }
      if (line.startsWith(' ')) {
        push({ kind: 'ctx', old: oldLine++, new: newLine++, text: line.slice(1) });
        continue;
      }
      if (line.startsWith('\\')) continue; // "\ No newline at end of file"
    }
    const h = HUNK.exec(line);
    if (h) {
      oldLine = Number(h[1]);
      newLine = Number(h[2]);
      hunk = { header: line, lines: [] };
      file.hunks.push(hunk);
      continue;
    }
    hunk = null;
    if (line.startsWith('new file mode')) file.status = 'added';
    else if (line.startsWith('deleted file mode')) file.status = 'deleted';
    else if (line.startsWith('rename from ')) {
      file.oldPath = unquotePath(line.slice(12));
      file.status = 'renamed';
    } else if (line.startsWith('rename to ')) file.path = unquotePath(line.slice(10));
    else if (line.startsWith('--- ')) {
      const p = sidePath(line.slice(4), 'a/');
      if (p === null) file.status = 'added';
    } else if (line.startsWith('+++ ')) {
      const p = sidePath(line.slice(4), 'b/');
      if (p === null) file.status = 'deleted';
      else file.path = p;
    } else if (line.startsWith('Binary files ') || line === 'GIT binary patch') file.binary = true;
  }
  return files;
}
