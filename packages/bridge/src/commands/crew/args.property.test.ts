import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCrewArgs } from './args';

const word = fc.oneof(fc.constantFrom('create', 'invite', 'join', 'list', 'leave', 'remove', 'update', '--json', '--no-qr', '--dissolve', '--all', '--name', '--listen', 'alpha', '127.0.0.1:7443', '0.0.0.0:1', 'cj1_x'), fc.string({ maxLength: 20 }));

// The verbs run against a state folder in packages/bridge/test/crew-args.test.ts.
describe('collie crew arguments', () => {
  it('any argv parses to a command or a sentence, never a throw', () => {
    fc.assert(
      fc.property(fc.array(word, { maxLength: 7 }), (argv) => {
        const r = parseCrewArgs(argv);
        if (r.ok) expect(['create', 'invite', 'join', 'list', 'leave', 'remove', 'update']).toContain(r.args.verb);
        else expect(r.error.length).toBeGreaterThan(0);
      }),
      { numRuns: 1000 },
    );
  });

  it('the cases a person types', () => {
    // Found by the property above: a verb named like an Object.prototype key.
    expect(parseCrewArgs(['valueOf', '--all'])).toEqual({ ok: false, error: "no verb 'valueOf'" });
    expect(parseCrewArgs(['create', '--listen', '100.64.0.2:7443'])).toEqual({ ok: true, args: { verb: 'create', name: null, listen: '100.64.0.2:7443', json: false } });
    expect(parseCrewArgs(['create'])).toMatchObject({ ok: false, error: expect.stringContaining('needs --listen') });
    expect(parseCrewArgs(['join', 'cj1_a', '--name', 'Bad Name', '--listen', '127.0.0.1:1'])).toMatchObject({ ok: false, error: expect.stringContaining('--name') });
    expect(parseCrewArgs(['update'])).toMatchObject({ ok: false, error: expect.stringContaining('--all') });
    expect(parseCrewArgs(['list', '--dissolve'])).toMatchObject({ ok: false, error: 'list takes no --dissolve' });
  });
});
