import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { agentReply, codexMissing, startCodex, startResponsesApi, startTmux, tempDir } from '@collie/testkit';
import { bridgeFor, until } from './harness';
import { codexKind, liveAgentPane } from './live-rig';
import { openChat } from './chat-client';

/** The real Codex 0.171 TUI writes its rollout; the pane's Chat reads it (found among Codex's open files). */
const missing = codexMissing();
if (missing) console.log(`skipped: ${missing}`);

describe.skipIf(missing !== null)('a pane’s Chat from the real Codex TUI’s rollout', () => {
  it('shows the person’s words and the answer, in order, from the rollout Codex holds open', async () => {
    await using desk = await liveAgentPane(codexKind(), 30_000);
    const { api, agent: codex, bridge, id } = desk;
    await using client = await openChat(bridge, id);
    api.script(agentReply('Hello from Codex.'));
    await codex.submit('hi codex');
    await client.until('the answer', () => client.items(id).includes('markdown Hello from Codex.'), 60_000);
    expect(client.items(id)).toEqual(['user hi codex', 'markdown Hello from Codex.']);
    expect(client.chats.get(id)?.source).toMatch(/\/sessions\/.*rollout-.*\.jsonl$/);
  }, 180_000);

  it('two Codex panes in one folder and one CODEX_HOME: each Chat shows its own conversation, also when the other wrote last', async () => {
    await using tmux = await startTmux();
    await using api = await startResponsesApi();
    await using state = await tempDir('collie-state');
    await using home = await tempDir('collie-codex-shared-home-');
    await using folder = await tempDir('collie-codex-shared-cwd-');
    await promisify(execFile)('git', ['init', '-q', folder.path]);
    await using one = await startCodex(tmux, api, { home: home.path, cwd: folder.path });
    await using two = await startCodex(tmux, api, { home: home.path, cwd: folder.path });
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    const a = `${tmux.name}:${one.paneId}`;
    const b = `${tmux.name}:${two.paneId}`;
    await until(bridge.hub, 'both codex panes', (h) => h.panes.get(a)?.harness === 'codex' && h.panes.get(b)?.harness === 'codex', 90_000);
    await using client = await openChat(bridge, a, b);
    api.script(agentReply('Answer one.'));
    await one.submit('hi from pane one');
    await client.until('pane one’s answer', () => client.items(a).includes('markdown Answer one.'), 60_000);
    // Pane two writes its rollout after pane one's, in the same sessions folder.
    api.script(agentReply('Answer two.'));
    await two.submit('hi from pane two');
    await client.until('pane two’s answer', () => client.items(b).includes('markdown Answer two.'), 60_000);
    api.script(agentReply('Answer three.'));
    await one.submit('again from pane one');
    await client.until('pane one’s second answer', () => client.items(a).includes('markdown Answer three.'), 60_000);

    expect(client.items(a)).toEqual(['user hi from pane one', 'markdown Answer one.', 'user again from pane one', 'markdown Answer three.']);
    expect(client.items(b)).toEqual(['user hi from pane two', 'markdown Answer two.']);
    const [sa, sb] = [client.chats.get(a)?.source, client.chats.get(b)?.source];
    expect(sa).toMatch(/\/rollout-.*\.jsonl$/);
    expect(sa?.startsWith(`${home.path}/.codex/sessions/`)).toBe(true);
    expect(sb).toMatch(/\/rollout-.*\.jsonl$/);
    expect(sb?.startsWith(`${home.path}/.codex/sessions/`)).toBe(true);
    expect(sa).not.toBe(sb);
  }, 240_000);
});
