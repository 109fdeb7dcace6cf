import { describe, expect, it } from 'vitest';
import { plainReply, startClaude } from '@collie/testkit';
import { bridgeFor, until } from './harness';
import { claudeSessionsDesk, itemsOf, listSessions, readSession, resumeSession } from './sessions-kit';

/**
 * Past Claude Code sessions, made by the real CLI against the scripted Messages API in two
 * folders and closed: listed from its projects folder, read, and resumed in a new pane with
 * `claude --resume <id>`, whose next request carries the earlier turns.
 */
describe('Claude Code sessions: listed, read and resumed from its own store', () => {
  it('two sessions in two folders, panes closed: listed newest first with folder and first message; one read and resumed', async () => {
    await using desk = await claudeSessionsDesk('collie-sessions-');
    const { tmux, api, state, cfg, config, a, b, env } = desk;

    for (const [folder, words] of [
      [a.path, 'remember the word heron'],
      [b.path, 'second folder question'],
    ] as const) {
      await using claude = await startClaude(tmux, api, { cwd: folder, env });
      api.script(plainReply(`Answer to ${words}.`));
      await claude.submit(words);
      await claude.waitForScreen(new RegExp(`Answer to ${words}`), 60_000);
    }
    // Both panes are closed now.
    await using bridge = await bridgeFor(tmux.tmpDir, state.path, { configDir: config.path, sessionRoots: { claude: [cfg.path], codex: [], gemini: [], opencode: [], pi: [] } });
    const page = await listSessions(bridge);
    expect(page.sessions.map((s) => [s.agent, s.folder, s.title, s.pane])).toEqual([
      ['claude', b.path, 'second folder question', null],
      ['claude', a.path, 'remember the word heron', null],
    ]);
    expect(page.sessions[1]?.label).toMatch(/^collie-sessions-a-.*#main$/);
    expect((await listSessions(bridge, `?folder=${encodeURIComponent(a.path)}`)).sessions.map((s) => s.folder)).toEqual([a.path]);
    expect((await listSessions(bridge, '?q=HERON')).sessions.map((s) => s.folder)).toEqual([a.path]);
    expect((await listSessions(bridge, '?agent=codex')).sessions).toEqual([]);
    const first = await listSessions(bridge, '?limit=1');
    expect(first.sessions.map((s) => s.folder)).toEqual([b.path]);
    expect((await listSessions(bridge, `?limit=1&cursor=${first.next}`)).sessions.map((s) => s.folder)).toEqual([a.path]);

    const heron = page.sessions[1]!;
    expect(itemsOf(await readSession(bridge, 'claude', heron.id))).toEqual(['user remember the word heron', 'markdown Answer to remember the word heron.']);

    const resumed = await resumeSession(bridge, 'claude', heron.id, 'claude offline');
    expect(resumed.opened).toBe(true);
    expect(resumed.argv.slice(-2)).toEqual(['--resume', heron.id]);
    await until(bridge.hub, 'the resumed pane idle', (h) => h.panes.get(resumed.pane)?.harness === 'claude' && h.panes.get(resumed.pane)?.state === 'idle', 60_000);
    expect(bridge.hub.panes.get(resumed.pane)?.cwd).toBe(a.path);
    // The list says a pane runs it now, and resuming again opens that pane.
    await expect.poll(async () => (await listSessions(bridge)).sessions.find((s) => s.id === heron.id)?.pane, { timeout: 30_000 }).toBe(resumed.pane);
    expect(await resumeSession(bridge, 'claude', heron.id, 'claude offline')).toMatchObject({ pane: resumed.pane, opened: false });

    const before = api.requests.length;
    api.script(plainReply('The word was heron.'));
    const tmuxId = resumed.pane.slice(resumed.pane.lastIndexOf(':') + 1);
    await tmux.typeText(tmuxId, 'what was the word?');
    await tmux.waitForScreen(tmuxId, /what was the word\?/, 30_000);
    await tmux.sendKeys(tmuxId, 'Enter');
    await tmux.waitForScreen(tmuxId, /The word was heron\./, 60_000);
    const next = api.requests.slice(before).map((r) => JSON.stringify(r.body)).find((body) => body.includes('what was the word?'));
    expect(next).toContain('remember the word heron');
    expect(next).toContain('Answer to remember the word heron.');
  }, 300_000);
});
