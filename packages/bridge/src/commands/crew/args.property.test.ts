import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir } from '@collie/testkit';
import { crew } from './index';
import { parseCrewArgs } from './args';

const word = fc.oneof(fc.constantFrom('create', 'invite', 'join', 'list', 'leave', 'remove', 'update', '--json', '--no-qr', '--dissolve', '--all', '--name', '--listen', 'alpha', '127.0.0.1:7443', '0.0.0.0:1', 'cj1_x'), fc.string({ maxLength: 20 }));

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

  it('exit codes and --json errors without a crew; invite draws its QR code on a terminal', async () => {
    await using dir = await tempDir('collie-crew-args-');
    const env = { COLLIE_STATE_DIR: dir.path, COLLIE_CONFIG_DIR: `${dir.path}/config`, HOME: dir.path };
    expect(await crew(['bogus'], { env, tty: false })).toMatchObject({ code: 2, err: expect.stringContaining("no verb 'bogus'") });
    expect(await crew(['list', '--json'], { env, tty: false })).toEqual({ code: 3, err: '', out: `${JSON.stringify({ error: { code: 'no_crew', message: 'this machine is in no crew (collie crew create, or collie crew join <token>)' } })}\n` });
    expect((await crew(['create', '--name', 'bluefin', '--listen', '127.0.0.1:7443'], { env, tty: false })).code).toBe(0);
    const shown = await crew(['invite'], { env, tty: true });
    expect(shown.code).toBe(0);
    expect(shown.out).toMatch(/^ {2}cj1_[A-Za-z0-9_-]+$/m);
    expect(shown.out).toMatch(/[▀▄█]/);
    expect((await crew(['invite', '--no-qr'], { env, tty: true })).out).not.toMatch(/[▀▄█]/);
    const update = await crew(['update', '--all', '--json'], { env, tty: false });
    expect(JSON.parse(update.out)).toEqual({ lead: '0.1.0', members: [] });
  });
});
