import { appendFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentPane } from '@collie/testkit';
import {
  agentReply,
  chatReply,
  CODEX_FAKE_KEY,
  codexMissing,
  codexScript,
  geminiMissing,
  launchChromium,
  startChatApi,
  startCodex,
  startGemini,
  startGeminiApi,
  startOpencode,
  startPi,
  startResponsesApi,
  startTmux,
  tempDir,
} from '@collie/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launcherOf } from '../../bridge/test/sessions-kit';
import { buildWeb, gitDir } from './e2e-setup';
import { LINE, resumeFromPhone } from './sessions-phone';

/**
 * Issue 30 for Codex, Gemini CLI, OpenCode and pi (Claude Code: sessions.e2e.test.ts): two
 * sessions made by the real program against its scripted API in two folders, their panes
 * closed, then listed, read and resumed from a phone-sized Chromium, where a message sent to
 * the resumed pane reaches the model with the earlier turns (`resumeFromPhone`).
 */
const HERON = 'remember the word heron';
const NOTES = 'write the release notes';
const answer = (words: string) => `Answer about ${words === HERON ? 'the heron' : 'the notes'}.`;

let dist = '';
let browser: Browser;
let work: { path: string } & AsyncDisposable;
beforeAll(async () => {
  work = await tempDir('collie-sessions-agents-');
  dist = join(work.path, 'dist');
  await buildWeb(dist);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await work?.[Symbol.asyncDispose]();
});

/** Folders `shop` (the heron session's) and `docs` (the newer one's), git trees on main. */
async function folders(parent: string): Promise<[string, string]> {
  const root = await realpath(parent);
  return [await gitDir(root, 'shop', 'main'), await gitDir(root, 'docs', 'main')];
}

/** The heron session in `a`, then the notes session in `b`, each in its own pane closed after; the first pane's command. */
async function twoSessions(a: string, b: string, start: (folder: string) => Promise<AgentPane>, reply: (text: string) => void): Promise<readonly string[]> {
  let argv: readonly string[] = [];
  for (const [folder, words] of [
    [a, HERON],
    [b, NOTES],
  ] as const) {
    await using agent = await start(folder);
    if (argv.length === 0) argv = launcherOf(agent.argv);
    reply(answer(words));
    await agent.submit(words);
    await agent.waitForScreen((s) => s.includes(answer(words)), 120_000);
  }
  return argv;
}

/** The earlier turns are in the resumed agent's next request, and the line sent once. */
function carriesEarlierTurns(body: string): void {
  expect(body).toContain(HERON);
  expect(body).toContain(answer(HERON));
  expect(body.split(LINE)).toHaveLength(2);
}

describe('past sessions of every other agent, resumed from the phone', () => {
  it('pi: two sessions listed, one read and resumed with --session <file>, its next request carrying the earlier turns', async () => {
    await using tmux = await startTmux();
    await using api = await startChatApi();
    await using home = await tempDir('collie-sessions-pi-home-');
    await using dirs = await tempDir('collie-sessions-pi-');
    const [a, b] = await folders(dirs.path);
    const reply = (t: string) => api.script(chatReply(t));
    const launcher = await twoSessions(a, b, (cwd) => startPi(tmux, api, { home: home.path, cwd }), reply);
    const body = await resumeFromPhone(browser, dist, { agent: 'pi', harness: 'pi', root: join(home.path, 'agent'), heron: a, other: b, titles: [NOTES, HERON], answer: answer(HERON), launcher, api, reply, tmux });
    carriesEarlierTurns(body);
  }, 300_000);
});
