import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MASK, makeRedactor, redact, redactLines } from './index';
import { fakeBody, keys, negatives, positives } from './redact-corpus';

const stripAnsi = (s: string) => s.replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '');
const tail = (secret: string) => secret.slice(-Math.min(6, secret.length));

describe('redact: positive corpus', () => {
  it.each(positives.map((c) => [c.name, c] as const))('%s is masked', (_name, c) => {
    const out = redact(c.text);
    expect(out).not.toBe(c.text);
    expect(out).toContain(MASK);
    expect(stripAnsi(out)).not.toContain(tail(c.secret));
    if (c.expected !== undefined) expect(out).toBe(c.expected);
  });
});

describe('redact: negative corpus', () => {
  it.each(negatives.map((t) => [t] as const))('%j is unchanged', (text) => {
    expect(redact(text)).toBe(text);
  });

  // Real screens of Claude Code and omp at rest hold no secret, and full of SGR and CRLF they
  // are the best check that masking leaves an ordinary screen byte for byte as it was.
  const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../../testkit/corpus/panes');
  const screens = readdirSync(fixtures).filter((f) => f.endsWith('.txt') && !f.startsWith('LICENSE'));
  it('covers the fixture screens', () => expect(screens.length).toBeGreaterThan(10));
  it.each(screens.map((f) => [f] as const))('fixture %s is unchanged', (file) => {
    const screen = readFileSync(join(fixtures, file), 'utf8');
    expect(redact(screen)).toBe(screen);
    expect(redactLines(screen.split('\n'), { width: 200 })).toEqual(screen.split('\n'));
  });
});

describe('redactLines', () => {
  it('masks a key that the right edge wraps onto the next row', () => {
    const line = `key ${keys.openaiProject} end`;
    const rows = [line.slice(0, 40), line.slice(40, 80), line.slice(80, 120), line.slice(120)];
    const out = redactLines(rows, { width: 40 });
    expect(out[0]).toBe(`key sk-proj-${MASK}`);
    expect(out.join('')).not.toContain(keys.openaiProject.slice(-6));
    expect(out[3]).toMatch(/end$/);
  });

  it('masks a key cut before its minimum length by the edge', () => {
    const rows = [`xx ${keys.anthropic.slice(0, 9)}`, keys.anthropic.slice(9)];
    const out = redactLines(rows, { width: rows[0]?.length ?? 0 });
    expect(out).toEqual(['xx sk-ant-…', '…']);
  });

  it('reads rows separately without a width', () => {
    const rows = [`xx ${keys.anthropic.slice(0, 9)}`, 'next'];
    expect(redactLines(rows)).toEqual(rows);
  });

  it('keeps a private key hidden over a cut-off bottom edge, row by row', () => {
    const rows = ['$ cat key.pem', '-----BEGIN EC PRIVATE KEY-----', `  ${fakeBody(64, 3)}  `, '', fakeBody(20, 4)];
    expect(redactLines(rows)).toEqual(['$ cat key.pem', '-----BEGIN EC PRIVATE KEY-----', `  ${MASK}  `, '', MASK]);
  });

  it('does not run a one-line JSON key into the next rows', () => {
    const rows = ['"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvgIBADANBgkqhkiG9w0BAQEFAASC', '"client_email": "a@b.iam"'];
    const out = redactLines(rows);
    expect(out[0]).toBe('"private_key": "-----BEGIN PRIVATE KEY-----…');
    expect(out[1]).toBe(rows[1]);
  });

  it('keeps CR line ends and escapes', () => {
    const rows = [`\x1b[0mTOKEN=abc123\x1b[0m\r`, '\x1b[0m  plain\r'];
    expect(redactLines(rows)).toEqual([`\x1b[0mTOKEN=${MASK}\x1b[0m\r`, '\x1b[0m  plain\r']);
  });
});

describe('makeRedactor', () => {
  const text = `export GH=${keys.githubPat}`;

  it('masks when enabled', () => {
    const r = makeRedactor(true);
    expect(r.enabled).toBe(true);
    expect(r(text)).toBe(`export GH=ghp_${MASK}`);
    expect(r.lines([text, 'ok'])).toEqual([`export GH=ghp_${MASK}`, 'ok']);
  });

  it('is the identity when disabled', () => {
    const r = makeRedactor(false);
    expect(r.enabled).toBe(false);
    expect(r(text)).toBe(text);
    expect(r.lines([text])).toEqual([text]);
  });
});
