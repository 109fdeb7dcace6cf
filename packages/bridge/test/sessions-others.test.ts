import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agentReply, chatReply, geminiMissing, geminiResumeLoaded, startChatApi, startGemini, startGeminiApi, startOpencode, startPi, startTmux, tempDir, type AgentPane, type TmuxServer } from '@collie/testkit';
import { bridgeFor } from './harness';
import { askResumed, itemsOf, launcherOf, listSessions, readSession, repoFolder, resumeSession } from './sessions-kit';

/**
 * Past sessions of Gemini CLI, OpenCode and pi, each made by the real program against its
 * scripted API in a folder and closed: listed from the agent's own store with folder, first
 * message and agent, read, and resumed with the agent's own resume command, whose next request
 * carries the earlier turns. Waits are generous: the machine is shared.
 */
const SLOW = 120_000;

/** An agent's scripted API, how to script its answer and how to start the agent against it. */
interface Scripted extends AsyncDisposable {
  api: AsyncDisposable & { readonly requests: readonly { body: unknown }[] };
  reply: (text: string) => void;
  start: (tmux: TmuxServer, where: { home: string; cwd: string }) => Promise<AgentPane>;
}

/** What differs between the agents: how each starts, answers and resumes, and where it keeps its sessions. */
interface Agent {
  name: 'pi' | 'opencode' | 'gemini';
  test: string;
  timeout: number;
  missing: () => string | null;
  scripted: () => Promise<Scripted>;
  /** Its sessions' store below its home. */
  root: (home: string) => string;
  /** The title the listing gives the session. */
  title: string;
  /** Checks the resume command's words for the session `id`. */
  resumedWith: (argv: readonly string[], id: string) => void;
  /** Runs before the resume. */
  beforeResume?: (tmux: TmuxServer) => Promise<unknown>;
  /** When the resumed program takes keys (its screen). */
  loaded?: (screen: string) => boolean;
}

/** The scripted API `api`, disposed with the returned parts. */
const scripted = <Api extends AsyncDisposable & Scripted['api']>(api: Api, reply: (api: Api, text: string) => void, start: (tmux: TmuxServer, api: Api, where: { home: string; cwd: string }) => Promise<AgentPane>): Scripted => ({
  api,
  reply: (text) => reply(api, text),
  start: (tmux, where) => start(tmux, api, where),
  [Symbol.asyncDispose]: () => api[Symbol.asyncDispose](),
});

const agents: Agent[] = [
  {
    name: 'pi',
    test: 'pi: a session in a folder, pane closed: listed, read, resumed with --session <file>',
    timeout: 420_000,
    missing: () => null,
    scripted: async () => scripted(await startChatApi(), (api, text) => api.script(chatReply(text)), startPi),
    root: (home) => join(home, 'agent'),
    title: 'remember the word heron',
    resumedWith: (argv) => expect(argv.at(-2)).toBe('--session'),
  },
  {
    name: 'opencode',
    test: 'OpenCode: a session in a folder, pane closed: listed, read, resumed with --session <id>',
    timeout: 600_000,
    missing: () => null,
    scripted: async () => scripted(await startChatApi(), (api, text) => api.script(chatReply(text)), startOpencode),
    root: (home) => join(home, '.local', 'share', 'opencode'),
    // Its title is the one OpenCode asked its model for (the scripted API's title answer).
    title: 'Scripted title',
    resumedWith: (argv, id) => expect(argv.slice(-2)).toEqual(['--session', id]),
  },
  {
    name: 'gemini',
    test: 'Gemini CLI: a session in a folder, pane closed: listed, read, resumed with --resume <id>',
    timeout: 600_000,
    missing: geminiMissing,
    scripted: async () => scripted(await startGeminiApi(), (api, text) => api.script(agentReply(text)), startGemini),
    root: (home) => join(home, '.gemini'),
    title: 'remember the word heron',
    resumedWith: (argv, id) => expect(argv.slice(-2)).toEqual(['--resume', id]),
    // A resumed program that ends leaves its pane (and the words it ended with) for the failure.
    beforeResume: (tmux) => tmux.tmux('set-option', '-wg', 'remain-on-exit', 'on'),
    // Resumed, it takes keys once its input box is back under the drawn turns (`geminiResumeLoaded`).
    loaded: (screen) => geminiResumeLoaded(screen, 'Answer about the heron.'),
  },
];

describe('sessions of the other agents: listed, read and resumed from their own stores', () => {
  for (const a of agents) {
    it.skipIf(a.missing() !== null)(a.test, async () => {
      await using tmux = await startTmux();
      await tmux.newSession('main');
      await using agent = await a.scripted();
      const { api } = agent;
      await using state = await tempDir('collie-state');
      await using home = await tempDir(`collie-sessions-${a.name}-home-`);
      await using config = await tempDir('collie-config');
      await using folder = await repoFolder(`collie-sessions-${a.name}-`);
      let launcher: readonly string[] = [];
      {
        await using pane = await agent.start(tmux, { home: home.path, cwd: folder.path });
        launcher = launcherOf(pane.argv);
        agent.reply('Answer about the heron.');
        await pane.submit('remember the word heron');
        await pane.waitForScreen((s) => s.includes('Answer about the heron.'), SLOW);
      }
      await writeFile(join(config.path, 'launchers.json'), JSON.stringify({ launchers: [{ name: `${a.name} offline`, command: launcher }] }));
      const roots = { claude: [], codex: [], gemini: [], opencode: [], pi: [], [a.name]: [a.root(home.path)] };
      await using bridge = await bridgeFor(tmux.tmpDir, state.path, { configDir: config.path, sessionRoots: roots });

      const page = await listSessions(bridge);
      expect(page.sessions.map((s) => [s.agent, s.folder, s.title, s.pane])).toEqual([[a.name, folder.path, a.title, null]]);
      expect((await listSessions(bridge, `?folder=${encodeURIComponent(folder.path)}&agent=${a.name}`)).sessions).toHaveLength(1);
      const heron = page.sessions[0]!;
      expect(itemsOf(await readSession(bridge, a.name, heron.id))).toEqual(['user remember the word heron', 'markdown Answer about the heron.']);

      await a.beforeResume?.(tmux);
      const resumed = await resumeSession(bridge, a.name, heron.id, `${a.name} offline`);
      a.resumedWith(resumed.argv, heron.id);
      const next = await askResumed(bridge, { tmux, api, reply: agent.reply }, resumed, a.name, 'say the word again', 'The word was heron.', a.loaded);
      expect(next).toContain('remember the word heron');
      expect(next).toContain('Answer about the heron.');
      await tmux.killPane(resumed.pane.slice(resumed.pane.lastIndexOf(':') + 1));
    }, a.timeout);
  }
});
