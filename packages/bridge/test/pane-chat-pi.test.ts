import { describe, expect, it } from 'vitest';
import { chatReply, chatToolCall, startChatApi, startPi, startTmux, tempDir } from '@collie/testkit';
import { bridgeFor, until } from './harness';
import { openChat } from './chat-client';
import { piKind, liveAgentPane } from './live-rig';

/**
 * The real pi 0.73 TUI writes its session file; the pane's Chat reads it. pi appends and
 * closes the file, so the bridge finds it by time: the newest session in the pane's folder
 * that started since the pane's pi did (docs/agents.md). Waits are generous: the machine is shared.
 */
const SLOW = 120_000;

describe('a pane’s Chat from the real pi TUI’s session file', () => {
  it('shows the person’s words, the answers and a bash call with its output, in order; /new starts a new chat', async () => {
    await using desk = await liveAgentPane(piKind(), SLOW);
    const { api, agent: pi, bridge, id } = desk;
    await using client = await openChat(bridge, id);
    // pi writes nothing until the first answer: the chat says so meanwhile.
    await client.until('the first reason', () => client.chats.get(id)?.reason?.includes('No conversation in this pi session yet'), SLOW);

    api.script(chatReply('Hello from pi.'));
    await pi.submit('hi pi');
    await client.until('the answer', () => client.items(id).includes('markdown Hello from pi.'), SLOW);
    const first = client.chats.get(id)?.source ?? '';
    expect(first).toMatch(/\/agent\/sessions\/--.+--\/[^/]+_[0-9a-f-]+\.jsonl$/);

    api.script(...chatToolCall('bash', { command: 'echo collie-marker', description: 'Print a marker' }));
    await pi.submit('run the marker');
    await client.until('the closing words', () => client.items(id).includes('markdown Tool finished: collie-marker'), SLOW);
    expect(client.items(id)).toEqual([
      'user hi pi',
      'markdown Hello from pi.',
      'user run the marker',
      'markdown I will run a command.',
      'tool bash echo collie-marker [done] collie-marker',
      'markdown Tool finished: collie-marker',
    ]);

    // /new: a new session file in the same process; the chat follows it.
    await pi.submit('/new');
    api.script(chatReply('A fresh start.'));
    await pi.submit('hello again');
    await client.until('the new session’s answer', () => client.items(id).includes('markdown A fresh start.'), SLOW);
    expect(client.items(id)).toEqual(['user hello again', 'markdown A fresh start.']);
    expect(client.chats.get(id)?.source).not.toBe(first);
  }, 420_000);

  it('two pi panes in one folder and one agent dir: the first keeps its own chat, the second says it cannot tell', async () => {
    await using home = await tempDir('collie-pi-shared-home-');
    await using folder = await tempDir('collie-pi-shared-cwd-');
    await using desk = await liveAgentPane(piKind({ home: home.path, cwd: folder.path }), SLOW);
    const { tmux, api, agent: one, bridge, id: a } = desk;
    await using client = await openChat(bridge, a);
    api.script(chatReply('Answer one.'));
    await one.submit('hi from pane one');
    await client.until('pane one’s answer', () => client.items(a).includes('markdown Answer one.'), SLOW);

    // The second pi starts after the first one's session did: that session can only be the first's.
    // More than the finder's doubt (1 s: process start times are read against a boot time in
    // whole seconds) after it; started closer, the finder rightly says it cannot tell for both.
    await new Promise((r) => setTimeout(r, 2_000));
    await using two = await startPi(tmux, api, { home: home.path, cwd: folder.path });
    const b = `${tmux.name}:${two.paneId}`;
    await until(bridge.hub, 'the second pi pane', (h) => h.panes.get(b)?.harness === 'pi', SLOW);
    client.subscribe(b);
    api.script(chatReply('Answer two.'));
    await two.submit('hi from pane two');
    await api.waitForRequest((r) => r.kind === 'main' && r.prompt === 'hi from pane two', SLOW);
    // Its session started while both ran: either could have written it, and the pane says so.
    await client.until('pane two’s reason', () => client.chats.get(b)?.reason?.includes('cannot tell which transcript is this pane’s'), SLOW);
    expect(client.items(b)).toEqual([]);

    api.script(chatReply('Answer three.'));
    await one.submit('again from pane one');
    await client.until('pane one’s second answer', () => client.items(a).includes('markdown Answer three.'), SLOW);
    expect(client.items(a)).toEqual(['user hi from pane one', 'markdown Answer one.', 'user again from pane one', 'markdown Answer three.']);
  }, 420_000);

  it('a resumed session (pi -c in a new pane) shows its earlier conversation and follows it', async () => {
    await using tmux = await startTmux();
    await using api = await startChatApi();
    await using state = await tempDir('collie-state');
    await using home = await tempDir('collie-pi-resume-home-');
    await using folder = await tempDir('collie-pi-resume-cwd-');
    const first = await startPi(tmux, api, { home: home.path, cwd: folder.path });
    api.script(chatReply('Before the resume.'));
    await first.submit('first words');
    await first.waitForScreen((s) => s.includes('Before the resume.'), SLOW);
    await first.kill();

    await using again = await startPi(tmux, api, { home: home.path, cwd: folder.path, args: ['-c'] });
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    const id = `${tmux.name}:${again.paneId}`;
    await until(bridge.hub, 'the resumed pi pane', (h) => h.panes.get(id)?.harness === 'pi', SLOW);
    await using client = await openChat(bridge, id);
    api.script(chatReply('After the resume.'));
    await again.submit('more words');
    await client.until('the answer after the resume', () => client.items(id).includes('markdown After the resume.'), SLOW);
    expect(client.items(id)).toEqual(['user first words', 'markdown Before the resume.', 'user more words', 'markdown After the resume.']);
  }, 420_000);
});
