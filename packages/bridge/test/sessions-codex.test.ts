import { describe, expect, it } from 'vitest';
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agentReply, CODEX_FAKE_KEY, codexMissing, codexScript, startCodex, startResponsesApi, startTmux, tempDir } from '@collie/testkit';
import { bridgeFor } from './harness';
import { askResumed, itemsOf, listSessions, readSession, repoFolder, resumeSession } from './sessions-kit';

/**
 * Past Codex sessions, made by the real Codex TUI against the scripted Responses API in two
 * folders and closed: listed from its rollouts, read, and resumed with `codex resume <id>`,
 * whose next request carries the earlier turns.
 */
const missing = codexMissing();
if (missing) console.log(`skipped: ${missing}`);

describe.skipIf(missing !== null)('Codex sessions: listed, read and resumed from its own rollouts', () => {
  it('two sessions in two folders, panes closed: listed with folder and first message; one read and resumed', async () => {
    await using tmux = await startTmux();
    await tmux.newSession('main');
    await using api = await startResponsesApi();
    await using state = await tempDir('collie-state');
    await using home = await tempDir('collie-sessions-codex-home-');
    await using config = await tempDir('collie-config');
    await using a = await repoFolder('collie-sessions-a-');
    await using b = await repoFolder('collie-sessions-b-');
    const codexHome = join(home.path, '.codex');
    const launcher = ['env', `HOME=${home.path}`, `CODEX_HOME=${codexHome}`, `FAKE_OPENAI_KEY=${CODEX_FAKE_KEY}`, 'TERM=xterm-256color', process.execPath, codexScript()];
    await writeFile(join(config.path, 'launchers.json'), JSON.stringify({ launchers: [{ name: 'codex offline', command: launcher }] }));

    for (const [folder, words] of [
      [a.path, 'remember the word heron'],
      [b.path, 'second folder question'],
    ] as const) {
      await using codex = await startCodex(tmux, api, { home: home.path, cwd: folder });
      api.script(agentReply(`Answer to ${words}.`));
      await codex.submit(words);
      await codex.waitForScreen(new RegExp(`Answer to ${words}`), 60_000);
    }
    // Each start wrote its own folder's trust: both folders are trusted, as a user's are.
    await appendFile(join(codexHome, 'config.toml'), `\n[projects."${a.path}"]\ntrust_level = "trusted"\n`);
    await using bridge = await bridgeFor(tmux.tmpDir, state.path, { configDir: config.path, sessionRoots: { claude: [], codex: [codexHome], gemini: [], opencode: [], pi: [] } });
    const page = await listSessions(bridge);
    expect(page.sessions.map((s) => [s.agent, s.folder, s.title, s.pane])).toEqual([
      ['codex', b.path, 'second folder question', null],
      ['codex', a.path, 'remember the word heron', null],
    ]);
    expect((await listSessions(bridge, '?q=heron')).sessions.map((s) => s.folder)).toEqual([a.path]);
    const heron = page.sessions[1]!;
    expect(itemsOf(await readSession(bridge, 'codex', heron.id))).toEqual(['user remember the word heron', 'markdown Answer to remember the word heron.']);

    const resumed = await resumeSession(bridge, 'codex', heron.id, 'codex offline');
    expect(resumed.argv.slice(-2)).toEqual(['resume', heron.id]);
    const next = await askResumed(bridge, { tmux, api, reply: (t) => api.script(agentReply(t)) }, resumed, 'codex', 'say the word again', 'The word was heron.');
    expect(next).toContain('remember the word heron');
    expect(next).toContain('Answer to remember the word heron.');
    await tmux.killPane(resumed.pane.slice(resumed.pane.lastIndexOf(':') + 1));
  }, 300_000);
});
