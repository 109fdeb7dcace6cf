import { chmod, mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '@collie/testkit';
import { skill } from '../src/commands/skill';
import { cliBin } from '../src/commands/paths';
import { BEGIN, END } from '../src/skill/text';
import { runCli } from './walky/kit';

async function home() {
  const dir = await tempDir('collie-skill-home');
  const env = { HOME: dir.path, COLLIE_STATE_DIR: join(dir.path, 'state'), COLLIE_CONFIG_DIR: join(dir.path, 'config'), XDG_CONFIG_HOME: '', CODEX_HOME: '', CLAUDE_CONFIG_DIR: '' };
  return { dir, env, p: (...parts: string[]) => join(dir.path, ...parts) };
}
const read = (path: string) => readFile(path, 'utf8');

describe('collie skill over real harness layouts in a temp HOME', () => {
  it('installs into every harness found, replaces in place, backs up, is idempotent, uninstalls and remembers', async () => {
    const { dir, env, p } = await home();
    await using _ = dir;
    // Claude with two profiles, codex with the user's own AGENTS.md and an override, gemini and pi and opencode folders.
    await mkdir(p('.claude'), { recursive: true });
    await mkdir(p('.claude-work'), { recursive: true });
    await mkdir(p('.codex'), { recursive: true });
    await writeFile(p('.codex', 'AGENTS.md'), '# My rules\n\nUse tabs.\n');
    await writeFile(p('.codex', 'AGENTS.override.md'), 'override\n');
    await mkdir(p('.gemini'), { recursive: true });
    await mkdir(p('.pi', 'agent'), { recursive: true });
    await mkdir(p('.config', 'opencode'), { recursive: true });

    const dry = await skill({ verb: 'sync', dryRun: true }, env);
    expect(dry.out).toContain(`(dry run) installed ${p('.claude', 'skills', 'walky-talky', 'SKILL.md')}`);
    expect(await readdir(p('.claude'))).toEqual([]);

    const first = await skill({ verb: 'sync' }, env);
    expect(first.code).toBe(0);
    expect(first.out.split('\n').sort()).toEqual(
      [
        `installed ${p('.claude', 'skills', 'walky-talky', 'SKILL.md')}`,
        `installed ${p('.claude-work', 'skills', 'walky-talky', 'SKILL.md')}`,
        `updated ${p('.codex', 'AGENTS.md')}`,
        `note: ${p('.codex', 'AGENTS.override.md')}: codex reads this file instead of ${p('.codex', 'AGENTS.md')}, so the block there is ignored`,
        `installed ${p('.config', 'opencode', 'AGENTS.md')}`,
        `installed ${p('.pi', 'agent', 'AGENTS.md')}`,
        `installed ${p('.gemini', 'GEMINI.md')}`,
      ].sort(),
    );
    const codex = await read(p('.codex', 'AGENTS.md'));
    expect(codex.startsWith('# My rules\n\nUse tabs.\n\n<!-- collie:walky-talky v1 begin -->\n')).toBe(true);
    expect(codex).toContain(`${cliBin} walky send <address>`);
    expect(await read(p('.codex', 'AGENTS.md.collie-backup'))).toBe('# My rules\n\nUse tabs.\n');
    const claudeFile = await read(p('.claude', 'skills', 'walky-talky', 'SKILL.md'));
    expect(claudeFile).toMatch(/^---\nname: walky-talky\ndescription: /);
    expect(claudeFile).toContain('end your turn');
    expect(claudeFile).toContain('Never run a destructive command');

    // A second run changes no byte and prints nothing, not even the override note (that comes with a change).
    const again = await skill({ verb: 'sync' }, env);
    expect(again.out).toBe('');
    const cliAgain = await runCli(['skill', 'sync'], env);
    expect(cliAgain.code).toBe(0);
    expect(cliAgain.out).toBe('');
    expect(await read(p('.codex', 'AGENTS.md'))).toBe(codex);

    // A stale block is replaced in place; the lines around it stay as written.
    await writeFile(p('.gemini', 'GEMINI.md'), `before\n${BEGIN}\nold text\n${END}\nafter\n`);
    expect((await skill({ verb: 'status', check: true }, env)).code).toBe(3);
    expect((await runCli(['skill', 'status', '--check'], env)).code).toBe(3);
    expect((await skill({ verb: 'status' }, env)).out).toMatch(/gemini\s+stale/);
    expect((await skill({ verb: 'sync' }, env)).out.split('\n').filter((l) => !l.startsWith('note:'))).toEqual([`updated ${p('.gemini', 'GEMINI.md')}`]);
    const gemini = await read(p('.gemini', 'GEMINI.md'));
    expect(gemini.startsWith(`before\n${BEGIN}\n## Walky talky`)).toBe(true);
    expect(gemini.endsWith(`${END}\nafter\n`)).toBe(true);
    expect((await skill({ verb: 'status', check: true }, env)).code).toBe(0);

    // Uninstall: the Claude file goes, the blocks are cut, the rest stays; a sync does not bring it back.
    const out = await skill({ verb: 'uninstall', harness: 'all' }, env);
    expect(out.out).toContain(`removed ${p('.claude', 'skills', 'walky-talky', 'SKILL.md')}`);
    expect(await read(p('.codex', 'AGENTS.md'))).toBe('# My rules\n\nUse tabs.\n');
    expect(await read(p('.gemini', 'GEMINI.md'))).toBe('before\nafter\n');
    expect((await skill({ verb: 'sync' }, env)).out).toBe('');
    expect((await skill({ verb: 'status' }, env)).out.split('\n').every((l) => /\sabsent\s/.test(l))).toBe(true);
    // install <harness> takes the record back for that harness.
    expect((await skill({ verb: 'install', harness: 'codex' }, env)).out).toContain(`updated ${p('.codex', 'AGENTS.md')}`);
    expect((await skill({ verb: 'sync' }, env)).out).toBe('');
    // A named install says it again, the file current or not.
    expect((await skill({ verb: 'install', harness: 'codex' }, env)).out).toBe(`note: ${p('.codex', 'AGENTS.override.md')}: codex reads this file instead of ${p('.codex', 'AGENTS.md')}, so the block there is ignored`);
  });

  it('refuses a symlink, an unreadable file and damaged markers, writing nothing', async () => {
    const { dir, env, p } = await home();
    await using _ = dir;
    await mkdir(p('.codex'), { recursive: true });
    await writeFile(p('real.md'), 'mine\n');
    await symlink(p('real.md'), p('.codex', 'AGENTS.md'));
    await mkdir(p('.gemini'), { recursive: true });
    await writeFile(p('.gemini', 'GEMINI.md'), `x\n${BEGIN}\nhalf a block\n`);
    await mkdir(p('.pi', 'agent'), { recursive: true });
    await writeFile(p('.pi', 'agent', 'AGENTS.md'), 'secret\n');
    await chmod(p('.pi', 'agent', 'AGENTS.md'), 0o000);
    const root = process.getuid?.() === 0; // root reads a 0000 file: the case cannot happen there

    const r = await skill({ verb: 'sync' }, env);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`refused ${p('.codex', 'AGENTS.md')}: a symlink`);
    expect(r.out).toContain(`refused ${p('.gemini', 'GEMINI.md')}: damaged markers`);
    if (!root) expect(r.out).toContain(`refused ${p('.pi', 'agent', 'AGENTS.md')}: cannot read it (EACCES)`);
    expect(await read(p('real.md'))).toBe('mine\n');
    expect(await read(p('.gemini', 'GEMINI.md'))).toBe(`x\n${BEGIN}\nhalf a block\n`);
    expect((await readdir(p('.gemini'))).sort()).toEqual(['GEMINI.md']);
    expect((await readdir(p('.codex'))).sort()).toEqual(['AGENTS.md']);

    // A harness not found is created when named.
    const named = await skill({ verb: 'install', harness: 'opencode' }, env);
    expect(named.out).toBe(`installed ${p('.config', 'opencode', 'AGENTS.md')}`);
    expect((await skill({ verb: 'install', harness: 'vim' }, env)).code).toBe(2);
  });

  it('collie update brings the skill up to date; with COLLIE_SKILL_SYNC=off it writes nothing and notes a stale copy once', async () => {
    const { dir, env, p } = await home();
    await using _ = dir;
    await mkdir(p('.gemini'), { recursive: true });
    const stale = `before\n${BEGIN}\nold text\n${END}\nafter\n`;
    await writeFile(p('.gemini', 'GEMINI.md'), stale);

    const off = await runCli(['update'], { ...env, COLLIE_SKILL_SYNC: 'off' });
    expect(off.code).toBe(0);
    expect(off.out.trim().split('\n')).toEqual(['note: this build carries a newer walky talky skill; COLLIE_SKILL_SYNC is off, so run collie skill sync to install it']);
    expect(await read(p('.gemini', 'GEMINI.md'))).toBe(stale);
    expect((await readdir(p('.gemini'))).sort()).toEqual(['GEMINI.md']);

    const bad = await runCli(['update'], { ...env, COLLIE_SKILL_SYNC: 'maybe' });
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain('COLLIE_SKILL_SYNC');
    expect(await read(p('.gemini', 'GEMINI.md'))).toBe(stale);

    const on = await runCli(['update'], env);
    expect(on.code).toBe(0);
    expect(on.out.trim()).toBe(`updated ${p('.gemini', 'GEMINI.md')}`);
    expect((await skill({ verb: 'status', check: true }, env)).code).toBe(0);
    // Current everywhere: a second update prints nothing, and with the switch off no note either.
    expect((await runCli(['update'], env)).out.trim()).toBe('');
    expect((await runCli(['update'], { ...env, COLLIE_SKILL_SYNC: 'off' })).out.trim()).toBe('');
  });

  it('collie doctor shows the walky rows: the socket, the refusals per reason, the skill', async () => {
    const { dir, env, p } = await home();
    await using _ = dir;
    await mkdir(p('.gemini'), { recursive: true });
    await writeFile(p('.gemini', 'GEMINI.md'), `${BEGIN}\nold text\n${END}\n`);
    await mkdir(p('state', 'walky'), { recursive: true, mode: 0o700 });
    await writeFile(p('state', 'walky', 'refusals.json'), JSON.stringify({ reasons: { 'pane replaced': { count: 2 }, 'empty body': { count: 1 } } }));
    const r = await runCli(['doctor'], { ...env, COLLIE_WALKY: 'off' });
    expect(r.out).toContain(`no socket yet at ${p('state', 'walky', 'sock')} (the bridge opens it); COLLIE_WALKY=off: every message for this machine's panes is refused (not sent: off)`);
    expect(r.out).toContain('2 × pane replaced, 1 × empty body');
    expect(r.out).toMatch(/skill-walky-talky.*stale: gemini \(run collie skill sync\)/);
  });
});
