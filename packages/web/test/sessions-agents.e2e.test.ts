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
  geminiResumeLoaded,
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

/**
 * The heron session in `a`, then the notes session in `b` (newer), each asked once; the first
 * pane's command. With `overlap`, the second agent starts while the first one's turn runs (both
 * panes share one HOME and store); else the first pane is closed before the second starts.
 */
async function twoSessions(a: string, b: string, start: (folder: string) => Promise<AgentPane>, reply: (text: string) => void, overlap = false): Promise<readonly string[]> {
  const first = await start(a);
  let second: Promise<AgentPane> | null = null;
  try {
    reply(answer(HERON));
    await first.submit(HERON);
    if (overlap) second = start(b);
    await first.waitForScreen((s) => s.includes(answer(HERON)), 120_000);
    if (!overlap) await first.kill();
    second ??= start(b);
    const other = await second;
    reply(answer(NOTES));
    await other.submit(NOTES);
    await other.waitForScreen((s) => s.includes(answer(NOTES)), 120_000);
    return launcherOf(first.argv);
  } finally {
    await second?.then((p) => p.kill(), () => undefined);
    await first.kill();
  }
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
    const launcher = await twoSessions(a, b, (cwd) => startPi(tmux, api, { home: home.path, cwd }), reply, true);
    const body = await resumeFromPhone(browser, dist, { agent: 'pi', harness: 'pi', root: join(home.path, 'agent'), heron: a, other: b, titles: [NOTES, HERON], answer: answer(HERON), launcher, api, reply, tmux });
    carriesEarlierTurns(body);
  }, 300_000);

  it.skipIf(codexMissing() !== null)('Codex: two sessions listed, one read and resumed with `codex resume <id>`, its next request carrying the earlier turns', async () => {
    await using tmux = await startTmux();
    await using api = await startResponsesApi();
    await using home = await tempDir('collie-sessions-codex-home-');
    await using dirs = await tempDir('collie-sessions-codex-');
    const [a, b] = await folders(dirs.path);
    const reply = (t: string) => api.script(agentReply(t));
    await twoSessions(a, b, (cwd) => startCodex(tmux, api, { home: home.path, cwd }), reply);
    // Each start trusted its own folder: both are, as a user's are.
    const codexHome = join(home.path, '.codex');
    await appendFile(join(codexHome, 'config.toml'), `\n[projects."${a}"]\ntrust_level = "trusted"\n`);
    const launcher = ['env', `HOME=${home.path}`, `CODEX_HOME=${codexHome}`, `FAKE_OPENAI_KEY=${CODEX_FAKE_KEY}`, 'TERM=xterm-256color', process.execPath, codexScript()];
    const body = await resumeFromPhone(browser, dist, { agent: 'codex', harness: 'codex', root: codexHome, heron: a, other: b, titles: [NOTES, HERON], answer: answer(HERON), launcher, api, reply, tmux });
    carriesEarlierTurns(body);
  }, 300_000);

  it('OpenCode: two sessions listed, one read and resumed with --session <id>, its next request carrying the earlier turns', async () => {
    await using tmux = await startTmux();
    await using api = await startChatApi();
    await using home = await tempDir('collie-sessions-opencode-home-');
    await using dirs = await tempDir('collie-sessions-opencode-');
    const [a, b] = await folders(dirs.path);
    const reply = (t: string) => api.script(chatReply(t));
    const launcher = await twoSessions(a, b, (cwd) => startOpencode(tmux, api, { home: home.path, cwd }), reply, true);
    // Each session's title is the one OpenCode asked its model for (the scripted API's title answer).
    // OpenCode is the slowest to start and answer (over 100 s a start under load): its budget is the bridge test's.
    const root = join(home.path, '.local', 'share', 'opencode');
    const body = await resumeFromPhone(browser, dist, { agent: 'opencode', harness: 'opencode', root, heron: a, other: b, titles: ['Scripted title', 'Scripted title'], answer: answer(HERON), launcher, api, reply, tmux });
    carriesEarlierTurns(body);
  }, 600_000);

  it.skipIf(geminiMissing() !== null)('Gemini CLI: two sessions listed, one read and resumed with --resume <id>, its next request carrying the earlier turns', async () => {
    await using tmux = await startTmux();
    await using api = await startGeminiApi();
    await using home = await tempDir('collie-sessions-gemini-home-');
    await using dirs = await tempDir('collie-sessions-gemini-');
    const [a, b] = await folders(dirs.path);
    const reply = (t: string) => api.script(agentReply(t));
    const launcher = await twoSessions(a, b, (cwd) => startGemini(tmux, api, { home: home.path, cwd }), reply, true);
    // Each start trusted its own folder: both are, as a user's are.
    await writeFile(join(home.path, '.gemini', 'trustedFolders.json'), JSON.stringify({ [a]: 'TRUST_FOLDER', [b]: 'TRUST_FOLDER' }));
    // Resumed, it takes keys once its input box is back under the drawn turns (`geminiResumeLoaded`).
    const body = await resumeFromPhone(browser, dist, { agent: 'gemini', harness: 'gemini', root: join(home.path, '.gemini'), heron: a, other: b, titles: [NOTES, HERON], answer: answer(HERON), launcher, api, reply, tmux, loaded: (screen) => geminiResumeLoaded(screen, answer(HERON)) });
    carriesEarlierTurns(body);
  }, 300_000);
});
