/**
 * What counts as a secret on one line of visible text, and which part of it is hidden.
 *
 * Each rule is a regular expression with a named group `s`: the characters in `s` are
 * hidden, everything matched before it (the provider prefix, the key name, the scheme) stays
 * so a reader still sees what kind of secret was there. Rules favour hiding too much over
 * hiding too little, but ordinary code, hashes, UUIDs, paths and prose must pass unchanged:
 * the negative corpus in `redact-corpus.ts` pins that.
 */

/** A half-open range `[start, end)` of visible-text indices to hide. */
export type Range = readonly [start: number, end: number];

interface Rule {
  readonly name: string;
  /** Flags must include `g` and `d`; the group to hide is named `s`. */
  readonly re: RegExp;
  /** A last look at the captured value, for the rules whose shape alone is too loose. */
  readonly accept?: (secret: string) => boolean;
}

// Token characters of the key formats below; a key must not start inside a longer word.
const B = '(?<![A-Za-z0-9_-])';
const END = '(?![A-Za-z0-9_-])';

// Names whose value is a secret. A name may carry a prefix (`DB_PASSWORD`, `client_secret`,
// `accessToken`, `x-api-key`) but must end with the word: `TOKEN_LIMIT`, `max_tokens` and
// `tokenizer` are not secrets. Lower-case words may not follow a letter (`bypass`), camel-case
// words may not follow a capital. `pass` counts only alone (`?user=a&pass=b`), and `pwd` not at
// all: `PWD=/home/…` is in every environment dump.
const LOWER = 'password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key';
const CAMEL = 'Password|Passwd|Passphrase|Secret|Token|Api[_-]?Key|ApiKey|AccessKey|PrivateKey';
const UPPER = 'PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|API[_-]?KEY|APIKEY|ACCESS[_-]?KEY|PRIVATE[_-]?KEY';
const KEY =
  '(?<![A-Za-z0-9_.-])(?:pass|PASS|[A-Za-z0-9_.-]*(?<![A-Za-z])(?:' +
  LOWER +
  '|' +
  UPPER +
  ')|[A-Za-z0-9_.-]*(?<![A-Z])(?:' +
  CAMEL +
  '))(?![A-Za-z0-9_.-])';

// Values that name a type, a switch or a reference, not a secret: `password: string`,
// `TOKEN=1`, `token: ${{ secrets.GH }}`, `"$DB_PASS"`, `token: config.token`.
const NOT_SECRET =
  /^(?:true|false|null|nil|none|undefined|yes|no|on|off|0|1|string|number|boolean|any|unknown|never|bytes|str|int)$/i;
const REFERENCE = /^(?:\$|%\(|%[sd]$|\{\{|<%)/;
const DOTTED = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
const CODE_CHARS = /[;(){}<>,]/;

function plausibleValue(value: string): boolean {
  return !NOT_SECRET.test(value) && !REFERENCE.test(value);
}

/**
 * A token without a scheme word must look random: a digit, or length with mixed case.
 * A random 20-character base62 token has no digit and only one case about 6 times in 10⁸;
 * a path or a word (`/home/ada/.ssh/config`, `authentication`) has neither.
 */
function looksRandom(value: string): boolean {
  return /\d/.test(value) || (value.length >= 20 && /[a-z]/.test(value) && /[A-Z]/.test(value));
}

const rule = (name: string, source: string, accept?: (s: string) => boolean, flags = 'gd'): Rule => ({
  name,
  re: new RegExp(source, flags),
  ...(accept ? { accept } : {}),
});

const RULES: readonly Rule[] = [
  // Provider keys. Prefixes as the providers document them (checked 2026).
  rule('anthropic', `${B}sk-ant-(?<s>[A-Za-z0-9_-]{16,})`),
  rule('openai', `${B}sk-(?!ant-)(?:proj-|svcacct-|admin-)?(?=[A-Za-z_-]*\\d)(?<s>[A-Za-z0-9_-]{20,})`),
  rule('google', `${B}AIza(?<s>[0-9A-Za-z_-]{30,})`),
  rule('github', `${B}(?:gh[pousr]_(?<s>[A-Za-z0-9]{20,})|github_pat_(?<s2>[A-Za-z0-9_]{20,}))`),
  rule('gitlab', `${B}glpat-(?<s>[A-Za-z0-9_-]{20,})`),
  rule('slack', `${B}(?:xox[abposr]|xapp)-(?<s>[A-Za-z0-9-]{10,})`),
  rule('aws-key-id', `(?<![A-Z0-9])(?:AKIA|ASIA)(?<s>[A-Z0-9]{16})(?![A-Z0-9])`),
  rule('stripe', `${B}(?:sk|rk)_(?:live|test)_(?<s>[A-Za-z0-9]{16,})|${B}whsec_(?<s2>[A-Za-z0-9]{16,})`),
  rule('huggingface', `${B}hf_(?<s>[A-Za-z0-9]{30,})${END}`),
  // JWT: header and payload are base64url JSON (`{"` encodes as `eyJ`); the signature may be empty.
  rule('jwt', `${B}eyJ(?<s>[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*)`),
  // ~/.aws/credentials is INI: spaces around `=` and no quotes, unlike the generic forms below.
  rule('aws-secret', `aws_?secret_?access_?key["']?\\s*[=:]\\s*["']?(?<s>[A-Za-z0-9/+=]{20,})`, undefined, 'gdi'),
  // PEM on one line: JSON strings hold `-----BEGIN … PRIVATE KEY-----\nMII…\n-----END …`.
  // A block that continues on the next lines is the business of `pem.ts`.
  rule('pem-inline', `-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----(?<s>.*?\\S)(?=\\s*-----END[A-Z0-9 ]*PRIVATE KEY-----|\\s*$)`),
  // Credentials in a URL's authority: `https://user:pass@host` keeps the user name.
  rule('url-credentials', `(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*://[^\\s/@:]*:(?<s>[^\\s/]+)@`),
  // …and a token as the whole user part (`https://<token>@github.com/…`, as git takes it): only
  // a long one of a token's characters that looks random, so `ssh://git@host` and
  // `https://ada.lovelace@host` pass (and no control or symbol run masks into another rule's value).
  rule('url-token-user', `(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*://(?<s>[A-Za-z0-9_.~+=-]{16,})@`, looksRandom),
  // `Bearer <token>` anywhere: curl lines, logs, pasted headers. Prose ("Bearer tokens") passes.
  rule('bearer', `(?<![A-Za-z0-9])[Bb]earer\\s+(?<s>[A-Za-z0-9._~+/=-]{8,})`, looksRandom),
  // Credential headers with a scheme word: the value after the scheme is always a secret.
  rule(
    'auth-header-scheme',
    `\\b(?:Proxy-)?Authorization\\s*[:=]\\s*["']?(?:Basic|Bearer|Token|Bot|Negotiate|Digest)\\s+(?<s>[^\\s'",]+)`,
    undefined,
    'gdi',
  ),
  // …and without one, the value must look random (`Authorization: the act of …` is prose).
  rule(
    'auth-header',
    `\\b(?:(?:Proxy-)?Authorization|X-Api-Key|Api-Key|X-Auth-Token|Private-Token)\\s*[:=]\\s*["']?(?!(?:Basic|Bearer|Token|Bot|Negotiate|Digest)\\s)(?<s>[^\\s'",]+)`,
    looksRandom,
    'gdi',
  ),
  // KEY=value with no spaces: env files, shell, URL queries, `--token=…` flags.
  rule('assign', `${KEY}=(?![=>~])(?<s>[^\\s'"\`&,;<>()\\[\\]{}][^\\s'"\`&,;<>)\\]}]*)`, plausibleValue),
  // Quoted values, with `=` or `:` and optional spaces: JSON, YAML, TOML, code literals.
  // The value may not start with a space, which keeps `"token: " + t + " done"` out.
  rule('assign-dq', `["']?${KEY}["']?\\s*[:=]\\s*"(?<s>(?=[^\\s"])(?:\\\\.|[^"\\\\])+)"`, plausibleValue),
  rule('assign-sq', `["']?${KEY}["']?\\s*[:=]\\s*'(?<s>[^\\s'][^']*)'`, plausibleValue),
  // YAML and `passwd: value` prompts: a key at the start of a line and one word to its end.
  rule(
    'assign-colon-line',
    `^\\s*(?:-\\s+)?${KEY}\\s*:\\s*(?<s>[^\\s'"#][^\\s]*)\\s*$`,
    (s) => plausibleValue(s) && !CODE_CHARS.test(s) && !DOTTED.test(s),
  ),
  // `--password hunter2`, `--api-key sk-…`: a flag named for a secret, then its value.
  rule(
    'flag',
    `(?<![A-Za-z0-9_-])--[A-Za-z0-9-]*(?:password|passwd|passphrase|token|secret|api-key)\\s+(?<s>[^\\s'"<$-][^\\s'"]*)`,
    plausibleValue,
  ),
];

// Something every rule needs to find: most screen rows have none of these, and one search
// costs less than the twenty rules (a 63-row Claude Code screen: 1.4 ms before, 0.3 ms after).
const TRIGGER =
  /sk-|AIza|gh[pousr]_|github_pat_|glpat-|xox|xapp-|AKIA|ASIA|_live_|_test_|whsec_|hf_|eyJ|PRIVATE KEY|:\/\/|bearer|authorization|api-key|auth-token|private-token|pass|secret|token|key/i;

/** Every range of `line` (visible text, no escapes, no line break) that a rule hides. */
export function secretRanges(line: string): Range[] {
  const out: Range[] = [];
  if (!TRIGGER.test(line)) return out;
  for (const { re, accept } of RULES) {
    re.lastIndex = 0;
    for (const m of line.matchAll(re)) {
      const groups = m.indices?.groups;
      const span = groups?.['s'] ?? groups?.['s2'];
      if (!span) continue;
      const value = line.slice(span[0], span[1]);
      if (accept && !accept(value)) continue;
      out.push([span[0], span[1]]);
    }
  }
  return outsideMarkers(line, out);
}

const MARKER = /-----(?:BEGIN|END)[A-Z0-9 ]*PRIVATE KEY-----/g;

/**
 * A PEM marker is never part of a secret: a range that runs into one stops where it starts.
 * Masked, a marker would no longer bound its block, and the next read of the masked text would
 * hide what stood before the marker left (fast-check found `Bearer x/-----END …-----END …`
 * masked differently twice).
 */
function outsideMarkers(line: string, ranges: Range[]): Range[] {
  if (ranges.length === 0 || !line.includes('-----')) return ranges;
  const markers = [...line.matchAll(MARKER)].map((m) => [m.index, m.index + m[0].length] as const);
  if (markers.length === 0) return ranges;
  const out: Range[] = [];
  for (const [start, end] of ranges) {
    if (markers.some(([a, b]) => start >= a && start < b)) continue;
    const cut = markers.find(([a]) => a > start && a < end);
    out.push([start, cut ? cut[0] : end]);
  }
  return out;
}
