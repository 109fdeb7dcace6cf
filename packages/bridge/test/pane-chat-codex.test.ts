import { describe, expect, it } from 'vitest';
import { agentReply, codexMissing, startCodex, startResponsesApi, startTmux, tempDir } from '@collie/testkit';
import { bridgeFor, until } from './harness';
import { ChatClient } from './chat-client';

/** The real Codex 0.171 TUI writes its rollout; the pane's Chat reads it (found among Codex's open files). */
const missing = codexMissing();
if (missing) console.log(`skipped: ${missing}`);

describe.skipIf(missing !== null)('a pane’s Chat from the real Codex TUI’s rollout', () => {
  it('shows the person’s words and the answer, in order, from the rollout Codex holds open', async () => {
    await using tmux = await startTmux();
    await using api = await startResponsesApi();
    await using state = await tempDir('collie-state');
    await using codex = await startCodex(tmux, api);
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    const id = `${tmux.name}:${codex.paneId}`;
    await until(bridge.hub, 'the codex pane', (h) => h.panes.get(id)?.harness === 'codex', 30_000);
    const client = new ChatClient(bridge.url, bridge.device.headers);
    await client.opened();
    try {
      client.subscribe(id);
      api.script(agentReply('Hello from Codex.'));
      await codex.submit('hi codex');
      await client.until('the answer', () => client.items(id).includes('markdown Hello from Codex.'), 60_000);
      expect(client.items(id)).toEqual(['user hi codex', 'markdown Hello from Codex.']);
      expect(client.chats.get(id)?.source).toMatch(/\/sessions\/.*rollout-.*\.jsonl$/);
    } finally {
      client.ws.close();
    }
  }, 180_000);
});
