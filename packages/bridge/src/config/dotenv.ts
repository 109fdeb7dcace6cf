/**
 * A small, strict parser for `<config>/.env`.
 *
 * Accepted: `KEY=value`, an optional `export ` prefix, blank lines and `#` comments, values in
 * double quotes (escapes `\n \r \t \\ \" \$`) or single quotes (literal), unquoted values up
 * to a ` #` comment. Not accepted: variable expansion (`$HOME` stays as written), values that
 * span lines. A line it cannot read is reported with its number and skipped, never thrown;
 * reports never repeat a value, since values here are often secrets.
 */

/** A line of the file that was skipped, and why. */
export interface DotenvProblem {
  /** 1-based line number. */
  readonly line: number;
  readonly message: string;
}

/** The variables read, and the lines skipped. */
export interface DotenvResult {
  readonly vars: Readonly<Record<string, string>>;
  readonly problems: readonly DotenvProblem[];
}

const ASSIGNMENT = /^(?:export[ \t]+)?([^=\s]*)[ \t]*=[ \t]*(.*)$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', '\\': '\\', '"': '"', $: '$' };

type Value = { ok: true; value: string } | { ok: false; message: string };

/** After a closing quote only spaces and a comment may follow. */
function checkRest(rest: string): Value | null {
  return /^\s*(?:#.*)?$/.test(rest) ? null : { ok: false, message: 'unexpected text after the closing quote' };
}

function parseValue(raw: string): Value {
  if (raw.startsWith('"')) {
    let value = '';
    for (let i = 1; i < raw.length; i++) {
      const c = raw[i] ?? '';
      if (c === '"') return checkRest(raw.slice(i + 1)) ?? { ok: true, value };
      if (c === '\\' && i + 1 < raw.length) {
        const next = raw[++i] ?? '';
        value += ESCAPES[next] ?? `\\${next}`;
      } else value += c;
    }
    return { ok: false, message: 'unterminated double quote (values may not span lines)' };
  }
  if (raw.startsWith("'")) {
    const close = raw.indexOf("'", 1);
    if (close < 0) return { ok: false, message: 'unterminated single quote (values may not span lines)' };
    return checkRest(raw.slice(close + 1)) ?? { ok: true, value: raw.slice(1, close) };
  }
  // Unquoted: a `#` starts a comment only after whitespace, so `pa#ss` keeps its `#`.
  const comment = /(?:^|\s)#/.exec(raw);
  return { ok: true, value: (comment ? raw.slice(0, comment.index) : raw).trim() };
}

/**
 * Parse the text of a `.env` file. Later assignments of a name win.
 *
 * @example
 * parseDotenv('export COLLIE_PORT=9000 # phone\nCOLLIE_HOST="127.0.0.1"\noops\n');
 * // { vars: { COLLIE_PORT: '9000', COLLIE_HOST: '127.0.0.1' },
 * //   problems: [{ line: 3, message: 'expected KEY=value' }] }
 */
export function parseDotenv(text: string): DotenvResult {
  const vars = new Map<string, string>();
  const problems: DotenvProblem[] = [];
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  lines.forEach((raw, index) => {
    const line = raw.replace(/\r$/, '').trim();
    if (line === '' || line.startsWith('#')) return;
    const report = (message: string) => problems.push({ line: index + 1, message });
    const m = ASSIGNMENT.exec(line);
    if (!m) return void report('expected KEY=value');
    const name = m[1] ?? '';
    if (!NAME.test(name)) {
      return void report(name === '' ? 'missing variable name before =' : `invalid variable name ${JSON.stringify(name)}`);
    }
    const value = parseValue(m[2] ?? '');
    if (!value.ok) return void report(`${name}: ${value.message}`);
    vars.set(name, value.value);
  });
  // fromEntries defines own properties, so a name like `__proto__` stays a plain key.
  return { vars: Object.fromEntries(vars), problems };
}
