import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseArgs } from './args';

describe('nerve args', () => {
  it('reads serve --config', () => {
    expect(parseArgs(['serve', '--config', 'c.yaml'])).toEqual({ ok: true, command: { kind: 'serve', config: 'c.yaml', verbose: false } });
    expect(parseArgs(['serve', '-v', '--config=c.yaml'])).toEqual({ ok: true, command: { kind: 'serve', config: 'c.yaml', verbose: true } });
  });

  it('refuses what it does not know, saying what', () => {
    expect(parseArgs([])).toEqual({ ok: false, message: 'nerve: no command given' });
    expect(parseArgs(['serve'])).toEqual({ ok: false, message: 'nerve serve: --config <config.yaml> is required' });
    expect(parseArgs(['serve', '--config'])).toEqual({ ok: false, message: 'nerve: --config needs a file' });
    expect(parseArgs(['serve', '--port', '1'])).toEqual({ ok: false, message: "nerve: unknown option '--port'" });
    expect(parseArgs(['run'])).toEqual({ ok: false, message: "nerve: unknown command 'run'" });
  });

  it('answers every argv with a value, never a throw (fuzz)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.constantFrom('serve', '--config', '-v', '--help', '--version', '-c')), { maxLength: 6 }), (argv) => {
        const r = parseArgs(argv);
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 1000 },
    );
  });
});
