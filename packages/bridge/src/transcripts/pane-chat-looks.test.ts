import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Pane } from '@collie/protocol';
import { statPasses } from '../procs/process-tree';
import { projectSlug } from './find-claude';
import { PaneChat } from './pane-chat';

// A pane whose agent has not registered a session yet is looked for again on a slowing timer,
// unless every folder where the answer would show is watched (Claude Code's registry): then a
// look comes only with a change there, and an idle bridge reads nothing on a timer.
const dirs: string[] = [];
const chats: PaneChat[] = [];

afterEach(() => {
  for (const c of chats.splice(0)) c.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A procfs fixture with one Claude Code process (pid 10) whose config dir is `config` (made when `withConfig`). */
function claudeWorld(withConfig: boolean) {
  const top = mkdtempSync(join(tmpdir(), 'collie-looks-'));
  dirs.push(top);
  const proc = join(top, 'proc');
  const config = join(top, 'config');
  const work = join(top, 'work');
  mkdirSync(join(proc, '10'), { recursive: true });
  mkdirSync(work);
  if (withConfig) mkdirSync(config);
  writeFileSync(join(proc, 'stat'), 'cpu 0 0 0 0\nbtime 1700000000\n');
  // Field 22 (the start time) is 12345.
  writeFileSync(join(proc, '10', 'stat'), `10 (claude) S 1 10 10 0 -1 ${'0 '.repeat(13)}12345 0 0`);
  writeFileSync(join(proc, '10', 'cmdline'), 'claude\0');
  writeFileSync(join(proc, '10', 'environ'), `CLAUDE_CONFIG_DIR=${config}\0`);
  symlinkSync(work, join(proc, '10', 'cwd'));
  const pane = Pane.parse({
    id: 'p1', address: 'local/%1#ab12', token: 'ab12', server: 'default', tmuxId: '%1', machine: 'here', sessionId: '$1', sessionName: 'work',
    windowId: '@1', windowIndex: 1, windowName: 'main', paneIndex: 0, active: false, cwd: work, title: 'claude', command: 'claude',
    pid: 10, width: 120, height: 40, harness: 'claude', label: 'work#main', state: 'idle', since: 1_000, dialog: null, card: null, draft: null,
  });
  const chat = new PaneChat('p1', pane, (s) => s, proc);
  chats.push(chat);
  return { proc, config, work, chat };
}

const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 10_000): Promise<number> => {
  const t0 = Date.now();
  while (!(await ok())) {
    if (Date.now() - t0 > ms) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - t0;
};

describe('a Claude pane with no session registered yet', () => {
  it('is looked for on the timer only while its registry folder cannot be watched, and found when the registry is written', async () => {
    // No config folder (so no sessions folder, nor its parent) to watch: the timer looks again (at 1 s, then 2 s on), after the one
    // look more that every first look under new watches takes.
    const unwatched = claudeWorld(false);
    await unwatched.chat.start();
    expect((await unwatched.chat.page(null, 1)).reason).toMatch(/has not registered this session/);
    const before = statPasses.count;
    const took = await until('two looks on the timer', () => statPasses.count >= before + 3);
    unwatched.chat.close();

    // The config folder there, its sessions folder not yet: watched through its parent; that one
    // look more, and none on the timer over the same time and more.
    const watched = claudeWorld(true);
    await watched.chat.start();
    expect((await watched.chat.page(null, 1)).reason).toMatch(/has not registered this session/);
    const quiet = statPasses.count;
    await new Promise((r) => setTimeout(r, took + 1_000));
    expect(statPasses.count).toBeLessThanOrEqual(quiet + 1);

    // The session starts: its sessions folder made (a look, which watches it), then its
    // transcript and its registry entry. The watch finds it.
    mkdirSync(join(watched.config, 'sessions'));
    await until('the look at the new folder', () => statPasses.count > quiet + 1);
    const home = join(watched.config, 'projects', projectSlug(watched.work));
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'abc-123.jsonl'), '');
    writeFileSync(join(watched.config, 'sessions', '10.json'), JSON.stringify({ pid: 10, sessionId: 'abc-123', cwd: watched.work, procStart: '12345' }));
    await until('the transcript found', async () => (await watched.chat.page(null, 1)).source !== null);
    expect((await watched.chat.page(null, 1)).source).toEqual({ agent: 'claude', path: join(home, 'abc-123.jsonl'), session: 'abc-123' });
  });
});
