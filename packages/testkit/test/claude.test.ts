import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  askUserQuestion,
  backgroundAgent,
  bashPermission,
  claudeInputReady,
  claudePermissionDialog,
  claudeQuestionDialog,
  claudeWorking,
  longTurn,
  plainReply,
  startClaude,
  startMessagesApi,
  startTmux,
  type ClaudePane,
  type MessagesApi,
  type TmuxServer,
} from '../src';

// One real Claude Code TUI, driven through a conversation turn by turn: a start costs seconds,
// a turn against the scripted API well under one.
describe('the real Claude Code TUI against the scripted API', () => {
  let tmux: TmuxServer;
  let api: MessagesApi;
  let claude: ClaudePane;

  beforeAll(async () => {
    tmux = await startTmux();
    api = await startMessagesApi();
    claude = await startClaude(tmux, api);
    console.info(`claude ready in a pane after ${claude.startMs} ms`);
  });

  afterAll(async () => {
    await claude?.kill();
    await api?.close();
    await tmux?.kill();
  });

  test('starts straight to an empty input box, with its own config dir', async () => {
    const screen = await claude.capture();
    expect(screen).toMatch(/Claude Code v\d+\.\d+\.\d+/);
    expect(claudeInputReady(screen)).toBe(true);
    const state = JSON.parse(readFileSync(join(claude.configDir, '.claude.json'), 'utf8'));
    expect(state.projects[claude.cwd].hasTrustDialogAccepted).toBe(true);
  });

  test('reaches the scripted API, shows the reply, and the request carries the typed prompt', async () => {
    api.script(plainReply('Hello from the scripted API.'));
    await claude.submit('say hello to collie');
    const req = await api.waitForRequest((r) => r.kind === 'main' && r.prompt === 'say hello to collie');
    expect(req.scripted).toBe(true);
    expect(req.userMessages).toEqual(['say hello to collie']);
    expect(req.toolNames).toEqual(expect.arrayContaining(['Bash', 'AskUserQuestion', 'Agent']));
    const screen = await claude.waitForScreen((s) => s.includes('● Hello from the scripted API.') && claudeInputReady(s));
    expect(screen).toContain('❯ say hello to collie');
  });

  test('a side call is told apart from the conversation and answered in its schema', async () => {
    await claude.submit('/rename');
    const side = await api.waitForRequest((r) => r.kind === 'side');
    expect(side.outputSchema).toMatchObject({ properties: { name: { type: 'string' } } });
    expect(side.scripted).toBe(true);
    await claude.waitForScreen(/scripted-session/);
    expect(api.requests.filter((r) => r.kind === 'main')).toHaveLength(1);
  });

  test('a long turn keeps it working until the answer ends', async () => {
    api.script(longTurn(3_000, 'The long turn is over.'));
    await claude.submit('take your time');
    // The /rename record rides along in this user message; the prompt is still what was typed.
    await api.waitForRequest((r) => r.kind === 'main' && r.prompt === 'take your time');
    await claude.waitForScreen(claudeWorking);
    const started = Date.now();
    // Every screen until the answer lands must still show the turn running.
    await claude.waitForScreen((s) => {
      if (s.includes('The long turn is over.')) return true;
      expect(claudeWorking(s)).toBe(true);
      return false;
    }, 20_000);
    expect(Date.now() - started).toBeGreaterThan(2_000);
    await claude.waitForScreen(claudeInputReady);
  });

  test('a Bash call raises the permission dialog; approving runs the command', async () => {
    api.script(bashPermission('touch made-by-bash', { description: 'Create a marker file' }));
    await claude.submit('make the marker file');
    const dialog = await claude.waitForScreen(claudePermissionDialog);
    expect(dialog).toContain('touch made-by-bash');
    expect(existsSync(join(claude.cwd, 'made-by-bash'))).toBe(false);
    await claude.press('Enter', (s) => !claudePermissionDialog(s));
    await claude.waitForScreen(/The command finished/);
    expect(existsSync(join(claude.cwd, 'made-by-bash'))).toBe(true);
    const closing = await api.waitForRequest((r) => r.kind === 'main' && r.toolResults.length > 0);
    expect(closing.toolResults[0]!.isError).toBe(false);
  });

  test('AskUserQuestion shows its options and the answer goes back as the tool result', async () => {
    api.script(
      askUserQuestion([
        { question: 'Which colour should the collie be?', header: 'Colour', options: [{ label: 'Black', description: 'classic' }, { label: 'Sable', description: 'golden' }] },
      ]),
    );
    await claude.submit('ask me something');
    const dialog = await claude.waitForScreen(claudeQuestionDialog);
    expect(dialog).toContain('Which colour should the collie be?');
    expect(dialog).toMatch(/❯ 1\. Black/);
    // One key at a time: the TUI reads Down and Enter arriving in one chunk as one unknown key.
    await claude.press('Down', /❯ 2\. Sable/);
    await claude.press('Enter', (s) => !claudeQuestionDialog(s));
    await claude.waitForScreen(/Noted\./);
    const answer = await api.waitForRequest((r) => r.toolResults.some((t) => t.text.includes('Sable')));
    expect(answer.kind).toBe('main');
  });

  test('a background agent runs as a sub-agent and its finish starts a new turn', async () => {
    api.script(backgroundAgent('Count the collies', { agentMs: 500, agentText: 'Three collies.' }));
    await claude.submit('start a helper');
    await claude.waitForScreen(/The background agent finished\./, 20_000);
    const sub = await api.waitForRequest((r) => r.kind === 'subagent');
    expect(sub.prompt).toBe('Count the collies');
    expect(api.pending()).toBe(0);
  });
});
