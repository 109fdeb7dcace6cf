/**
 * Syntax colours for one diff line, pure and line by line (a diff shows lines out of their
 * file, so nothing is carried from one line to the next: a line inside a block comment shows
 * as code). Enough to read a diff: keywords, strings, comments, numbers. The tokens always join
 * back into the line exactly.
 */
export type TokenKind = 'kw' | 'str' | 'com' | 'num' | 'plain';
export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
}

interface Lang {
  readonly keywords: ReadonlySet<string>;
  /** Line comment starts. */
  readonly comment: readonly string[];
}

const words = (s: string): ReadonlySet<string> => new Set(s.split(' '));
const C_LIKE = 'break case catch class const continue default do else enum export extends false finally for function if import in instanceof interface let new null return static super switch this throw true try type typeof var void while yield async await of from as implements private public protected readonly undefined';
const LANGS: Record<string, Lang> = {
  ts: { keywords: words(C_LIKE), comment: ['//'] },
  go: { keywords: words('break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var nil true false'), comment: ['//'] },
  rs: { keywords: words('as async await break const continue crate else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while'), comment: ['//'] },
  py: { keywords: words('and as assert async await break class continue def del elif else except False finally for from global if import in is lambda None nonlocal not or pass raise return True try while with yield'), comment: ['#'] },
  sh: { keywords: words('if then else elif fi for while do done case esac function in return export local'), comment: ['#'] },
  css: { keywords: words('important media supports import'), comment: [] },
};
const BY_EXT: Record<string, string> = { ts: 'ts', tsx: 'ts', js: 'ts', jsx: 'ts', mjs: 'ts', cjs: 'ts', java: 'ts', c: 'ts', h: 'ts', cpp: 'ts', cs: 'ts', kt: 'ts', swift: 'ts', go: 'go', rs: 'rs', py: 'py', rb: 'py', sh: 'sh', bash: 'sh', zsh: 'sh', yml: 'sh', yaml: 'sh', toml: 'sh', css: 'css', scss: 'css' };

/** The language of a path by its extension, or null (shown plain). */
export function langOf(path: string): string | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  // Own keys only: `x.constructor` is no language.
  return ext && Object.hasOwn(BY_EXT, ext) ? (BY_EXT[ext] ?? null) : null;
}

const TOKEN = /("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|`(?:[^`\\]|\\.)*`?)|(\b\d[\d_]*(?:\.\d+)?\b)|([A-Za-z_$][\w$]*)/g;

export function highlight(text: string, lang: string | null): Token[] {
  const l = lang && Object.hasOwn(LANGS, lang) ? LANGS[lang] : undefined;
  if (!l) return [{ kind: 'plain', text }];
  const out: Token[] = [];
  const push = (kind: TokenKind, t: string) => {
    if (t === '') return;
    const last = out.at(-1);
    if (last && last.kind === kind) out[out.length - 1] = { kind, text: last.text + t };
    else out.push({ kind, text: t });
  };
  let at = 0;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) {
    // A comment start before this token: the rest of the line is the comment.
    const before = text.slice(at, m.index);
    const com = firstComment(before, l);
    if (com >= 0) {
      push('plain', before.slice(0, com));
      push('com', text.slice(at + com));
      return out;
    }
    push('plain', before);
    const kind: TokenKind = m[1] !== undefined ? 'str' : m[2] !== undefined ? 'num' : l.keywords.has(m[0]) ? 'kw' : 'plain';
    push(kind, m[0]);
    at = m.index + m[0].length;
  }
  const rest = text.slice(at);
  const com = firstComment(rest, l);
  if (com >= 0) {
    push('plain', rest.slice(0, com));
    push('com', rest.slice(com));
  } else push('plain', rest);
  return out;
}

function firstComment(s: string, l: Lang): number {
  const found = l.comment.map((c) => s.indexOf(c)).filter((i) => i >= 0);
  return found.length ? Math.min(...found) : -1;
}
