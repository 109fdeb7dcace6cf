import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redact, redactLines } from './index';

const SGR = fc.constantFrom('\x1b[0m', '\x1b[1m', '\x1b[32m', '\x1b[38;2;215;119;87m', '\x1b[2m', '\x1b[7m');
const stripSgr = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
const sgrList = (s: string) => s.match(/\x1b\[[0-9;]*m/g) ?? [];

// Pieces that steer generated text into every rule and its edges.
const PIECES = fc.constantFrom(
  'sk-ant-', 'sk-', 'proj-', 'AIza', 'ghp_', 'github_pat_', 'glpat-', 'xoxb-', 'AKIA', 'sk_live_', 'hf_', 'eyJ',
  '.', '=', ':', ': ', '"', "'", '@', '://', 'https://', 'Bearer ', 'Authorization: ', 'password', 'TOKEN', 'secret',
  '-----BEGIN RSA PRIVATE KEY-----', '-----END RSA PRIVATE KEY-----', '\n', '\r\n', '\\n', '…', ' ', '--password ',
  '\x1b]8;;', '\x1b\\', '\x07', '\x1b', '\x1b[', '$', '&', '- ',
);
const fragment = fc.oneof(
  PIECES,
  SGR,
  fc.stringMatching(/^[A-Za-z0-9+/_-]{1,40}$/),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
);
const mixedText = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(''));

describe('redact properties', () => {
  it('never throws and never lengthens text', () => {
    fc.assert(
      fc.property(fc.oneof(mixedText, fc.string({ unit: 'binary', maxLength: 400 })), (text) => {
        expect(redact(text).length).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 2000 },
    );
  });

  it('is idempotent where a value runs into a PEM marker (found by fast-check: the marker was masked with it)', () => {
    const text = 'Bearer -a_+_a_-/AA/-----END RSA PRIVATE KEY----------END RSA PRIVATE KEY-----';
    const once = redact(text);
    expect(redact(once)).toBe(once);
    expect(once).toContain('-----END RSA PRIVATE KEY----------END RSA PRIVATE KEY-----');
    // A one-line key masked after its BEGIN marker is not read as a block's BEGIN row next time.
    const inline = redact('-----BEGIN RSA PRIVATE KEY-----\\n\r\n!');
    expect(redact(inline)).toBe(inline);
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(mixedText, (text) => {
        const once = redact(text);
        expect(redact(once)).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps every SGR escape, in order', () => {
    const text = fc.array(fc.oneof(PIECES, SGR, fc.stringMatching(/^[A-Za-z0-9+/_-]{1,40}$/)), { maxLength: 40 });
    fc.assert(
      fc.property(text, (parts) => {
        const input = parts.join('').replace(/\x1b(?!\[[0-9;]*m)/g, '');
        expect(sgrList(redact(input))).toEqual(sgrList(input));
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves text without secrets unchanged', () => {
    const word = fc.constantFrom(
      'the', 'pane', 'agent', 'waits', 'token', 'tokens', 'password', 'secret', 'key', 'sk', 'AKIA', 'eyJ',
      'src/index.ts', '/home/ada/.ssh/config', '12', '3f9a1c2', '3f9a1c2b7e4d5f60718293a4b5c6d7e8f9012345',
      '123e4567-e89b-12d3-a456-426614174000', 'fix(bridge):', 'const', 'x', '=', '==', '(', ')', ',', '.', '—', '✓',
    );
    const parts = fc.array(fc.oneof({ weight: 5, arbitrary: word }, { weight: 1, arbitrary: SGR }), { maxLength: 40 });
    const sep = fc.constantFrom(' ', ' ', '\n', '  ', '\r\n');
    fc.assert(
      fc.property(parts, fc.array(sep, { minLength: 40, maxLength: 40 }), (ws, seps) => {
        const text = ws.map((w, i) => w + (seps[i] ?? ' ')).join('');
        expect(redact(text)).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });
});

/** A generated secret: the text to embed, and the part that must never be shown. */
interface Generated {
  readonly text: string;
  readonly hidden: string;
}

const chars = (alphabet: string, min: number, max: number) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((a) => a.join(''));
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const URLSAFE = `${ALNUM}_-`;
const prefixed = (prefix: string, body: fc.Arbitrary<string>): fc.Arbitrary<Generated> =>
  body.map((b) => ({ text: prefix + b, hidden: b }));
const withDigit = (body: fc.Arbitrary<string>) =>
  fc.tuple(body, fc.constantFrom(...'0123456789'), body).map(([a, d, b]) => a + d + b);

const secret: fc.Arbitrary<Generated> = fc.oneof(
  prefixed('sk-ant-api03-', chars(URLSAFE, 20, 95)),
  prefixed('sk-', withDigit(chars(ALNUM, 12, 30))),
  prefixed('sk-proj-', withDigit(chars(URLSAFE, 12, 80))),
  prefixed('AIza', chars(URLSAFE, 35, 35)),
  prefixed('ghp_', chars(ALNUM, 36, 36)),
  prefixed('gho_', chars(ALNUM, 36, 36)),
  prefixed('ghs_', chars(ALNUM, 36, 36)),
  prefixed('github_pat_', chars(`${ALNUM}_`, 82, 82)),
  prefixed('glpat-', chars(URLSAFE, 20, 20)),
  prefixed('xoxb-', chars(`${ALNUM}-`, 20, 60)),
  prefixed('AKIA', chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16, 16)),
  prefixed('sk_live_', chars(ALNUM, 24, 99)),
  prefixed('rk_live_', chars(ALNUM, 24, 99)),
  prefixed('hf_', chars(ALNUM, 34, 40)),
  fc.tuple(chars(URLSAFE, 10, 40), chars(URLSAFE, 10, 60), chars(URLSAFE, 20, 43)).map(([h, p, s]) => ({
    text: `eyJ${h}.eyJ${p}.${s}`,
    hidden: `${p}.${s}`,
  })),
  prefixed('password=', chars(`${ALNUM}!#*+._-`, 8, 30)),
  prefixed('export DB_TOKEN=', chars(ALNUM, 8, 30)),
  chars(`${ALNUM} !#*+._-`, 8, 30)
    .filter((v) => !/^\s/.test(v))
    .map((v) => ({ text: `"client_secret": "${v}"`, hidden: v })),
  prefixed('Bearer ', withDigit(chars(`${ALNUM}._~+/-`, 8, 60))),
  chars(`${ALNUM}!*+._-`, 8, 30).map((v) => ({ text: `https://ada:${v}@example.com/x`, hidden: v })),
  // Git's own forms: a remote URL with a token as the password (`.git/config`, `git remote -v`)…
  fc.tuple(fc.constantFrom('alice', 'x-access-token', 'oauth2', 'git', 'ci-bot'), fc.constantFrom('ghp_', 'glpat-', ''), withDigit(chars(ALNUM, 12, 40))).map(([user, kind, t]) => ({
    text: `\turl = https://${user}:${kind}${t}@github.com/acme/shop.git`,
    hidden: t,
  })),
  // …and with the token as the user name alone.
  fc.tuple(fc.constantFrom('https', 'http'), withDigit(chars(ALNUM, 16, 40))).map(([scheme, t]) => ({ text: `${scheme}://${t}@github.com/acme/shop.git`, hidden: t })),
);

/** Insert SGR escapes at random places of a string. */
const sprinkle = (text: string): fc.Arbitrary<string> =>
  fc.array(fc.tuple(fc.nat({ max: text.length }), SGR), { maxLength: 3 }).map((cuts) => {
    let out = text;
    for (const [at, esc] of [...cuts].sort((a, b) => b[0] - a[0])) out = out.slice(0, at) + esc + out.slice(at);
    return out;
  });

// Random text around the secret, without ESC: an unfinished escape written right before a
// key can swallow its first letter on a real terminal too; screens never carry one.
const around = fc.string({ maxLength: 40 }).map((s) => s.replace(/\x1b/g, ''));

describe('a generated secret never survives', () => {
  it('in random text, with escapes inside it', () => {
    fc.assert(
      fc.property(
        secret.chain((s) => sprinkle(s.text).map((text) => ({ ...s, text }))),
        around,
        around,
        (s, before, after) => {
          const out = stripSgr(redact(`${before} ${s.text} ${after}`));
          expect(out).not.toContain(s.hidden.slice(-6));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('wrapped by the right edge of a pane', () => {
    fc.assert(
      fc.property(secret, fc.integer({ min: 8, max: 60 }), around, (s, width, before) => {
        const line = `${before.replace(/[\r\n]/g, '')} ${s.text} end`;
        const rows: string[] = [];
        for (let i = 0; i < line.length; i += width) rows.push(line.slice(i, i + width));
        const out = redactLines(rows, { width }).join('');
        expect(out).not.toContain(s.hidden.slice(-6));
      }),
      { numRuns: 2000 },
    );
  });
});
