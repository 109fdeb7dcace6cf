import { describe, expect, it } from 'vitest';
import { tempDir } from '@collie/testkit';
import { crew } from '../src/commands/crew/index';

describe('collie crew arguments', () => {
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
