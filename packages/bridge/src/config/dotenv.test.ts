import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDotenv } from './dotenv';

describe('parseDotenv', () => {
  it('reads the accepted forms', () => {
    const text = [
      '\uFEFF# Collie settings',
      '',
      'COLLIE_PORT=9000',
      'export COLLIE_HOST = 127.0.0.1   # loopback',
      'A="two words # not a comment"',
      "B='lit\\n$HOME'",
      'C="line\\nbreak \\"q\\" \\$HOME \\\\ \\x"',
      'D=pa#ss',
      'E=',
      'F=  spaced value  ',
      'G="x"  # trailing comment',
      'WINDOWS=crlf\r',
      'COLLIE_PORT=9001',
    ].join('\n');
    expect(parseDotenv(text)).toEqual({
      vars: {
        COLLIE_PORT: '9001',
        COLLIE_HOST: '127.0.0.1',
        A: 'two words # not a comment',
        B: 'lit\\n$HOME',
        C: 'line\nbreak "q" $HOME \\ \\x',
        D: 'pa#ss',
        E: '',
        F: 'spaced value',
        G: 'x',
        WINDOWS: 'crlf',
      },
      problems: [],
    });
  });

  it('reports malformed lines by number, skips them, and never repeats a value', () => {
    const text = [
      'GOOD=1',
      'just words',
      '=value',
      '1BAD=x',
      'OPEN="sk-secret-value',
      "SINGLE='abc",
      'AFTER="quoted"junk',
      'SPACE IN NAME=1',
      'LAST=ok',
    ].join('\n');
    const { vars, problems } = parseDotenv(text);
    expect(vars).toEqual({ GOOD: '1', LAST: 'ok' });
    expect(problems.map((p) => p.line)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(problems[0]?.message).toBe('expected KEY=value');
    expect(problems[2]?.message).toBe('invalid variable name "1BAD"');
    expect(problems[3]?.message).toMatch(/^OPEN: unterminated double quote/);
    expect(problems[5]?.message).toBe('AFTER: unexpected text after the closing quote');
    expect(JSON.stringify(problems)).not.toContain('sk-secret');
  });

  it('keeps __proto__ a plain key', () => {
    const { vars } = parseDotenv('__proto__=x\nconstructor=y');
    expect(Object.getPrototypeOf(vars)).toBe(Object.prototype);
    expect(Object.keys(vars)).toEqual(['__proto__', 'constructor']);
  });

  it('never throws, and every problem points at a real line', () => {
    const piece = fc.oneof(fc.string(), fc.constantFrom('=', '"', "'", '#', '\\', 'export ', '\n', '\r\n', 'A=', ' '));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        const { problems } = parseDotenv(text);
        const lines = text.split('\n').length;
        for (const p of problems) expect(p.line >= 1 && p.line <= lines).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/);

  it('round-trips simple KEY=value lines', () => {
    // No surrounding spaces, no leading quote, no ` #`: the unquoted form keeps these as is.
    const value = fc.stringMatching(/^[A-Za-z0-9_.,:/@%+=-]{0,30}$/);
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(name, value), { selector: ([k]) => k, maxLength: 10 }), (pairs) => {
        const text = pairs.map(([k, v]) => `${k}=${v}`).join('\n');
        expect(parseDotenv(text)).toEqual({ vars: Object.fromEntries(pairs), problems: [] });
      }),
    );
  });

  it('round-trips any one-line value in double quotes', () => {
    const value = fc.string().filter((v) => !/[\n\r]/.test(v));
    const quote = (v: string) => `"${v.replace(/[\\"$]/g, (c) => `\\${c}`)}"`;
    fc.assert(
      fc.property(name, value, (k, v) => {
        expect(parseDotenv(`export ${k}=${quote(v)}`)).toEqual({ vars: { [k]: v }, problems: [] });
      }),
    );
  });
});
