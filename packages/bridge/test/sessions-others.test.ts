import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agentReply, chatReply, geminiMissing, geminiResumeLoaded, startChatApi, startGemini, startGeminiApi, startOpencode, startPi, startTmux, tempDir } from '@collie/testkit';
import { bridgeFor } from './harness';
import { askResumed, itemsOf, launcherOf, listSessions, readSession, repoFolder, resumeSession } from './sessions-kit';

/**
 * Past sessions of Gemini CLI, OpenCode and pi, each made by the real program against its
 * scripted API in a folder and closed: listed from the agent's own store with folder, first
 * message and agent, read, and resumed with the agent's own resume command, whose next request
 * carries the earlier turns. Waits are generous: the machine is shared.
 */
const SLOW = 120_000;

describe('sessions of the other agents: listed, read and resumed from their own stores', () => {
  it('pi: a session in a folder, pane closed: listed, read, resumed with --session <file>', async () => {
    await using tmux = await startTmux();
    await tmux.newSession('main');
    await using api = await startChatApi();
    await using state = await tempDir('collie-state');
    await using home = await tempDir('collie-sessions-pi-home-');
    await using config = await tempDir('collie-config');
    await using folder = await repoFolder('collie-sessions-pi-');
    const agentDir = join(home.path, 'agent');
    let launcher: readonly string[] = [];
    {
      await using pi = await startPi(tmux, api, { home: home.path, cwd: folder.path });
      launcher = launcherOf(pi.argv);
      api.script(chatReply('Answer about the heron.'));
      await pi.submit('remember the word heron');
      await pi.waitForScreen((s) => s.includes('Answer about the heron.'), SLOW);
    }
    await writeFile(join(config.path, 'launchers.json'), JSON.stringify({ launchers: [{ name: 'pi offline', command: launcher }] }));
    await using bridge = await bridgeFor(tmux.tmpDir, state.path, { configDir: config.path, sessionRoots: { claude: [], codex: [], gemini: [], opencode: [], pi: [agentDir] } });

    const page = await listSessions(bridge);
    expect(page.sessions.map((s) => [s.agent, s.folder, s.title, s.pane])).toEqual([['pi', folder.path, 'remember the word heron', null]]);
    expect((await listSessions(bridge, `?folder=${encodeURIComponent(folder.path)}&agent=pi`)).sessions).toHaveLength(1);
    const heron = page.sessions[0]!;
    expect(itemsOf(await readSession(bridge, 'pi', heron.id))).toEqual(['user remember the word heron', 'markdown Answer about the heron.']);

    const resumed = await resumeSession(bridge, 'pi', heron.id, 'pi offline');
    expect(resumed.argv.at(-2)).toBe('--session');
    const next = await askResumed(bridge, { tmux, api, reply: (t) => api.script(chatReply(t)) }, resumed, 'pi', 'say the word again', 'The word was heron.');
    expect(next).toContain('remember the word heron');
    expect(next).toContain('Answer about the heron.');
    await tmux.killPane(resumed.pane.slice(resumed.pane.lastIndexOf(':') + 1));
  }, 420_000);

  it('OpenCode: a session in a folder, pane closed: listed, read, resumed with --session <id>', async () => {
    await using tmux = await startTmux();
    await tmux.newSession('main');
    await using api = await startChatApi();
    await using state = await tempDir('collie-state');
    await using home = await tempDir('collie-sessions-opencode-home-');
    await using config = await tempDir('collie-config');
    await using folder = await repoFolder('collie-sessions-opencode-');
    let launcher: readonly string[] = [];
    {
      await using oc = await startOpencode(tmux, api, { home: home.path, cwd: folder.path });
      launcher = launcherOf(oc.argv);
      api.script(chatReply('Answer about the heron.'));
      await oc.submit('remember the word heron');
      await oc.waitForScreen((s) => s.includes('Answer about the heron.'), SLOW);
    }
    await writeFile(join(config.path, 'launchers.json'), JSON.stringify({ launchers: [{ name: 'opencode offline', command: launcher }] }));
    const dataDir = join(home.path, '.local', 'share', 'opencode');
    await using bridge = await bridgeFor(tmux.tmpDir, state.path, { configDir: config.path, sessionRoots: { claude: [], codex: [], gemini: [], opencode: [dataDir], pi: [] } });

    const page = await listSessions(bridge);
    // Its title is the one OpenCode asked its model for (the scripted API's title answer).
    expect(page.sessions.map((s) => [s.agent, s.folder, s.title, s.pane])).toEqual([['opencode', folder.path, 'Scripted title', null]]);
    expect((await listSessions(bridge, `?folder=${encodeURIComponent(folder.path)}&agent=opencode`)).sessions).toHaveLength(1);
    const heron = page.sessions[0]!;
    expect(itemsOf(await readSession(bridge, 'opencode', heron.id))).toEqual(['user remember the word heron', 'markdown Answer about the heron.']);

    const resumed = await resumeSession(bridge, 'opencode', heron.id, 'opencode offline');
    expect(resumed.argv.slice(-2)).toEqual(['--session', heron.id]);
    const next = await askResumed(bridge, { tmux, api, reply: (t) => api.script(chatReply(t)) }, resumed, 'opencode', 'say the word again', 'The word was heron.');
    expect(next).toContain('remember the word heron');
    expect(next).toContain('Answer about the heron.');
    await tmux.killPane(resumed.pane.slice(resumed.pane.lastIndexOf(':') + 1));
  }, 600_000);

  it.skipIf(geminiMissing() !== null)('Gemini CLI: a session in a folder, pane closed: listed, read, resumed with --resume <id>', async () => {
    await using tmux = await startTmux();
    await tmux.newSession('main');
    await using api = await startGeminiApi();
    await using state = await tempDir('collie-state');
    await using home = await tempDir('collie-sessions-gemini-home-');
    await using config = await tempDir('collie-config');
    await using folder = await repoFolder('collie-sessions-gemini-');
    let launcher: readonly string[] = [];
    {
      await using gemini = await startGemini(tmux, api, { home: home.path, cwd: folder.path });
      launcher = launcherOf(gemini.argv);
      api.script(agentReply('Answer about the heron.'));
      await gemini.submit('remember the word heron');
      await gemini.waitForScreen((s) => s.includes('Answer about the heron.'), SLOW);
    }
    await writeFile(join(config.path, 'launchers.json'), JSON.stringify({ launchers: [{ name: 'gemini offline', command: launcher }] }));
    await using bridge = await bridgeFor(tmux.tmpDir, state.path, { configDir: config.path, sessionRoots: { claude: [], codex: [], gemini: [join(home.path, '.gemini')], opencode: [], pi: [] } });

    const page = await listSessions(bridge);
    expect(page.sessions.map((s) => [s.agent, s.folder, s.title, s.pane])).toEqual([['gemini', folder.path, 'remember the word heron', null]]);
    expect((await listSessions(bridge, `?folder=${encodeURIComponent(folder.path)}&agent=gemini`)).sessions).toHaveLength(1);
    const heron = page.sessions[0]!;
    expect(itemsOf(await readSession(bridge, 'gemini', heron.id))).toEqual(['user remember the word heron', 'markdown Answer about the heron.']);

    // A resumed program that ends leaves its pane (and the words it ended with) for the failure.
    await tmux.tmux('set-option', '-wg', 'remain-on-exit', 'on');
    const resumed = await resumeSession(bridge, 'gemini', heron.id, 'gemini offline');
    expect(resumed.argv.slice(-2)).toEqual(['--resume', heron.id]);
    // Resumed, it takes keys once its input box is back under the drawn turns (`geminiResumeLoaded`).
    const next = await askResumed(bridge, { tmux, api, reply: (t) => api.script(agentReply(t)) }, resumed, 'gemini', 'say the word again', 'The word was heron.', (screen) => geminiResumeLoaded(screen, 'Answer about the heron.'));
    expect(next).toContain('remember the word heron');
    expect(next).toContain('Answer about the heron.');
    await tmux.killPane(resumed.pane.slice(resumed.pane.lastIndexOf(':') + 1));
  }, 600_000);
});
