import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaneChatPage } from '@collie/protocol';
import {
  askUserQuestion,
  backgroundAgent,
  bashPermission,
  claudeInputText,
  claudePermissionDialog,
  claudeQuestionDialog,
  plainReply,
  startClaude,
  startMessagesApi,
  startTmux,
  tempDir,
  type ClaudePane,
  type MessagesApi,
  type TempDir,
  type TmuxServer,
} from '@collie/testkit';
import { bridgeFor, type TestBridge, until } from './harness';
import { ChatClient, landed, words } from './chat-client';

describe('a pane’s Chat from the real Claude Code TUI’s transcript', () => {
  let tmux: TmuxServer;
  let apiA: MessagesApi;
  let apiB: MessagesApi;
  let state: TempDir;
  let a: ClaudePane;
  let b: ClaudePane;
  let bridge: TestBridge;
  let client: ChatClient;
  const ids = { a: '', b: '' };
  /** B's transcript before its /clear, resumed by the last test. */
  let cleared: string | null = null;

  beforeAll(async () => {
    tmux = await startTmux();
    apiA = await startMessagesApi();
    apiB = await startMessagesApi();
    state = await tempDir('collie-state');
    a = await startClaude(tmux, apiA);
    // The second pane: the same folder and the same config dir, so both write to one projects folder.
    b = await startClaude(tmux, apiB, { cwd: a.cwd, session: a.session, env: { CLAUDE_CONFIG_DIR: a.configDir } });
    bridge = await bridgeFor(tmux.tmpDir, state.path);
    ids.a = `${tmux.name}:${a.paneId}`;
    ids.b = `${tmux.name}:${b.paneId}`;
    for (const id of Object.values(ids)) await until(bridge.hub, 'claude panes', (h) => h.panes.get(id)?.harness === 'claude', 30_000);
    client = new ChatClient(bridge.url, bridge.device.headers);
    await client.opened();
    client.subscribe(ids.a);
    client.subscribe(ids.b);
  }, 120_000);

  afterAll(async () => {
    client?.ws.close();
    await bridge?.stop();
    await a?.kill();
    await b?.kill();
    await apiA?.close();
    await apiB?.close();
    await tmux?.kill();
    await state?.remove();
  });

  it('two panes in one folder each show their own chat, live within 500 ms of the line landing', async () => {
    await client.until('both chats say there is no conversation yet', () => client.chats.get(ids.a)?.reason && client.chats.get(ids.b)?.reason);
    expect(client.chats.get(ids.a)?.reason).toBe('No conversation in this Claude session yet.');

    apiA.script(plainReply('Hello from pane A.'));
    await a.submit('hi from A');
    apiB.script(plainReply('Hello from pane B.'));
    await b.submit('hi from B');
    await client.until('A’s reply', () => client.items(ids.a).includes('markdown Hello from pane A.'));
    await client.until('B’s reply', () => client.items(ids.b).includes('markdown Hello from pane B.'));
    expect(client.items(ids.a)).toEqual(['user hi from A', 'markdown Hello from pane A.']);
    expect(client.items(ids.b)).toEqual(['user hi from B', 'markdown Hello from pane B.']);
    expect(client.chats.get(ids.a)?.source).not.toBe(client.chats.get(ids.b)?.source);

    // Live: a line's item reaches the subscriber within 500 ms of the line landing in the file.
    apiA.script(plainReply('A second answer, timed.'));
    const file = () => client.chats.get(ids.a)?.source ?? null;
    const line = landed(file, 'A second answer, timed.');
    await a.submit('again');
    const lineAt = await line;
    const key = `${ids.a}\nmarkdown A second answer, timed.`;
    await client.until('the timed reply', () => client.arrived.has(key));
    expect(client.arrived.get(key)! - lineAt).toBeLessThan(500);

    // The same page over HTTP, behind the device gate.
    const res = await fetch(`${bridge.url}/api/panes/${encodeURIComponent(ids.a)}/chat?limit=2`, { headers: bridge.device.headers });
    const page = PaneChatPage.parse(await res.json());
    expect(page.items.map(words)).toEqual(['user again', 'markdown A second answer, timed.']);
    expect(page.before).not.toBeNull();
    const older = PaneChatPage.parse(await (await fetch(`${bridge.url}/api/panes/${encodeURIComponent(ids.a)}/chat?before=${page.before}`, { headers: bridge.device.headers })).json());
    expect(older.items.map(words)).toEqual(['user hi from A', 'markdown Hello from pane A.']);
    expect(older.before).toBeNull();
    expect((await fetch(`${bridge.url}/api/panes/${encodeURIComponent(ids.a)}/chat`)).status).toBe(401);
    expect((await fetch(`${bridge.url}/api/panes/${encodeURIComponent(ids.a)}/chat?before=x`, { headers: bridge.device.headers })).status).toBe(400);
  }, 180_000);

  it('a tool call with its permission, an AskUserQuestion and a background agent, in order', async () => {
    apiA.script(bashPermission('touch made-by-chat'));
    await a.submit('run the command');
    await a.waitForScreen(claudePermissionDialog, 30_000);
    await client.until('the call, running', () => client.items(ids.a).includes('tool Bash touch made-by-chat [running]'));
    await a.press('1', (s) => !claudePermissionDialog(s), 30_000);
    await client.until('the call, done', () => client.items(ids.a).some((w) => w.startsWith('tool Bash touch made-by-chat [done]')));
    await client.until('the closing words', () => client.items(ids.a).some((w) => w.startsWith('markdown The command finished')));
    await a.press('C-u', (s) => (claudeInputText(s) ?? '') === '', 10_000);

    apiA.script(askUserQuestion([{ question: 'Which color?', header: 'Color', options: [{ label: 'Red', description: 'warm' }, { label: 'Blue', description: 'cool' }] }]));
    await a.submit('ask me a color');
    await a.waitForScreen(claudeQuestionDialog, 30_000);
    await a.press('1', (s) => !claudeQuestionDialog(s), 30_000);
    await client.until('the answer', () => client.items(ids.a).some((w) => w.startsWith('markdown Noted.')));
    // A retried key press may have landed in the input box once the dialog closed: empty it.
    await a.press('C-u', (s) => (claudeInputText(s) ?? '') === '', 10_000);
    const asked = client.items(ids.a).find((w) => w.startsWith('tool AskUserQuestion'));
    expect(asked).toMatch(/^tool AskUserQuestion Which color\? \[done\].*Red/);

    apiA.script(backgroundAgent('Count the files', { description: 'Count files', agentMs: 1_000, agentText: 'There are no files.' }));
    await a.submit('start a background agent');
    await client.until('the agent finished', () => client.items(ids.a).includes('markdown The background agent finished.'), 60_000);
    const chat = client.items(ids.a);
    const from = chat.indexOf('user start a background agent');
    const tail = chat.slice(from);
    expect(tail[0]).toBe('user start a background agent');
    expect(tail).toContain('markdown I will start a background agent.');
    expect(tail.some((w) => w.startsWith('tool Agent Count files [done]'))).toBe(true);
    expect(tail.indexOf('markdown The background agent is running.')).toBeLessThan(tail.indexOf('markdown The background agent finished.'));
    // Pane B saw none of it.
    expect(client.items(ids.b)).toEqual(['user hi from B', 'markdown Hello from pane B.']);
  }, 240_000);

  it('/clear starts a new transcript: the chat follows it', async () => {
    const before = client.chats.get(ids.b)?.source;
    await b.submit('/clear');
    // The new file's first line is the command itself.
    await client.until('a fresh chat', () => client.chats.get(ids.b)?.source !== before && !client.items(ids.b).includes('user hi from B'));
    apiB.script(plainReply('After the clear.'));
    await b.submit('a new turn');
    await client.until('the new turn', () => client.items(ids.b).includes('markdown After the clear.'));
    expect(client.items(ids.b)).toEqual(['notice /clear', 'user a new turn', 'markdown After the clear.']);
    expect(client.chats.get(ids.b)?.source).not.toBe(before);
    cleared = before ?? null;
  }, 120_000);

  it('a resumed session: a new pane that resumes B’s first session shows its conversation, and follows it', async () => {
    const session = /([0-9a-f-]{36})\.jsonl$/.exec(cleared ?? '')?.[1];
    expect(session).toBeDefined();
    const apiC = await startMessagesApi();
    const c = await startClaude(tmux, apiC, { cwd: a.cwd, session: a.session, env: { CLAUDE_CONFIG_DIR: a.configDir }, args: ['--resume', session!] });
    try {
      const id = `${tmux.name}:${c.paneId}`;
      await until(bridge.hub, 'the resumed pane', (h) => h.panes.get(id)?.harness === 'claude', 30_000);
      client.subscribe(id);
      await client.until('the resumed conversation', () => client.items(id).includes('markdown Hello from pane B.'));
      apiC.script(plainReply('Resumed and answering.'));
      await c.submit('after the resume');
      await client.until('the new turn', () => client.items(id).includes('markdown Resumed and answering.'));
      const chat = client.items(id);
      expect(chat.indexOf('user hi from B')).toBeLessThan(chat.indexOf('user after the resume'));
      expect(chat).not.toContain('user a new turn');
    } finally {
      await c.kill();
      await apiC.close();
    }
  }, 180_000);
});
