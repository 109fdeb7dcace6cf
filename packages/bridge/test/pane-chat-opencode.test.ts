import { describe, expect, it } from 'vitest';
import { chatReply, chatToolCall, startChatApi, startOpencode, startTmux, tempDir } from '@collie/testkit';
import { bridgeFor, until } from './harness';
import { ChatClient, openChat } from './chat-client';
import { opencodeKind, liveAgentPane } from './live-rig';

/**
 * The real OpenCode 1.18 TUI writes its conversation into its SQLite database; the pane's Chat
 * reads it from there, read-only, live. Which session is the pane's comes from the process's
 * own position in OpenCode's shared log (docs/agents.md). Waits are generous: the machine is
 * shared and OpenCode's start is CPU bound.
 */
const SLOW = 240_000;

describe('a pane’s Chat from the real OpenCode TUI’s database', () => {
  it('shows the person’s words, the answers and a bash call with its output, in order, live', async () => {
    await using desk = await liveAgentPane(opencodeKind({ permission: { bash: 'allow', edit: 'allow' } }), SLOW);
    const { api, agent: oc, bridge, id } = desk;
    await using client = await openChat(bridge, id);
    // A fresh TUI has no session until the first prompt: the chat says so meanwhile.
    await client.until('the first reason', () => client.chats.get(id)?.reason?.includes('No conversation in this OpenCode session yet'), SLOW);

    api.script(chatReply('Hello from OpenCode.'));
    await oc.submit('hi opencode');
    await client.until('the answer', () => client.items(id).includes('markdown Hello from OpenCode.'), SLOW);
    expect(client.chats.get(id)?.source).toMatch(/\/opencode\/opencode\.db$/);

    api.script(...chatToolCall('bash', { command: 'echo collie-marker', description: 'Print a marker' }));
    await oc.submit('run the marker');
    await client.until('the closing words', () => client.items(id).includes('markdown Tool finished: collie-marker'), SLOW);
    expect(client.items(id)).toEqual([
      'user hi opencode',
      'markdown Hello from OpenCode.',
      'user run the marker',
      'markdown I will run a command.',
      'tool bash echo collie-marker [done] collie-marker',
      'markdown Tool finished: collie-marker',
    ]);

    // The same chat over the API, paged.
    const res = await fetch(`${bridge.url}/api/panes/${encodeURIComponent(id)}/chat?limit=2`, { headers: bridge.device.headers });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { items: Array<{ kind: string }>; before: string | null; source: { agent: string; session: string | null } };
    expect(page.source.agent).toBe('opencode');
    expect(page.source.session).toMatch(/^ses_/);
    expect(page.items.map((i) => i.kind)).toEqual(['tool', 'markdown']);
    expect(page.before).not.toBeNull();
    const older = await fetch(`${bridge.url}/api/panes/${encodeURIComponent(id)}/chat?limit=50&before=${page.before}`, { headers: bridge.device.headers });
    expect(((await older.json()) as { items: unknown[] }).items).toHaveLength(4);
  }, 600_000);

  it('two OpenCode panes in one folder and one database: each Chat shows its own conversation', async () => {
    await using tmux = await startTmux();
    await using api = await startChatApi();
    await using state = await tempDir('collie-state');
    await using home = await tempDir('collie-opencode-shared-home-');
    await using folder = await tempDir('collie-opencode-shared-cwd-');
    const allow = { bash: 'allow', edit: 'allow' } as const;
    // One after the other (two first starts on one fresh database race in OpenCode's own migration),
    // both running before either has a session: nothing here depends on which began first.
    const one = await startOpencode(tmux, api, { home: home.path, cwd: folder.path, permission: allow });
    const two = await startOpencode(tmux, api, { home: home.path, cwd: folder.path, permission: allow });
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    const a = `${tmux.name}:${one.paneId}`;
    const b = `${tmux.name}:${two.paneId}`;
    await until(bridge.hub, 'both OpenCode panes', (h) => h.panes.get(a)?.harness === 'opencode' && h.panes.get(b)?.harness === 'opencode', SLOW);
    const client = new ChatClient(bridge.url, bridge.device.headers);
    await client.opened();
    try {
      client.subscribe(a);
      client.subscribe(b);
      api.script(chatReply('Answer one.'));
      await one.submit('hi from pane one');
      await client.until('pane one’s answer', () => client.items(a).includes('markdown Answer one.'), SLOW);

      // Pane two's session begins while both run, in the same folder and database.
      api.script(chatReply('Answer two.'));
      await two.submit('hi from pane two');
      await client.until('pane two’s answer', () => client.items(b).includes('markdown Answer two.'), SLOW);

      // Pane one writes last again: each keeps its own.
      api.script(chatReply('Answer three.'));
      await one.submit('again from pane one');
      await client.until('pane one’s second answer', () => client.items(a).includes('markdown Answer three.'), SLOW);
      expect(client.items(a)).toEqual(['user hi from pane one', 'markdown Answer one.', 'user again from pane one', 'markdown Answer three.']);
      expect(client.items(b)).toEqual(['user hi from pane two', 'markdown Answer two.']);
      expect(client.chats.get(a)?.source).toBe(client.chats.get(b)?.source);
    } finally {
      client.ws.close();
      await two.kill();
      await one.kill();
    }
  }, 600_000);
});
