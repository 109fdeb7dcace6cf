import { join } from 'node:path';
import { startBridge } from '@collie/bridge';
import { artifactPath, chatReply, chatToolCall, startChatApi, startOpencode, startPi, startTmux, tempDir, testBridgeOptions, type AgentPane, type TmuxServer } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { axeBoth, buildWeb, untilPane } from './e2e-setup';
import { openPhone } from './phone-rig';

const REPLY = ['## Findings', '', 'The **parser** drops `two` lines:', '', '1. A <script>alert(1)</script> stays words', '2. See [the docs](https://example.com/docs)'].join('\n');

type ChatApi = Awaited<ReturnType<typeof startChatApi>>;

/**
 * The agents on the chat-completions wire whose Chat is read from their own store (pi's session
 * file, OpenCode's database), each put through the same page: one body, one agent a row.
 */
const AGENTS: ReadonlyArray<{ name: string; harness: string; file: string; agentMs: number; timeoutMs: number; start: (tmux: TmuxServer, api: ChatApi) => Promise<AgentPane> }> = [
  { name: 'pi', harness: 'pi', file: 'pi', agentMs: 120_000, timeoutMs: 300_000, start: (tmux, api) => startPi(tmux, api) },
  { name: 'OpenCode', harness: 'opencode', file: 'opencode', agentMs: 240_000, timeoutMs: 600_000, start: (tmux, api) => startOpencode(tmux, api, { permission: { bash: 'allow', edit: 'allow' } }) },
];

for (const { name, harness, file, agentMs, timeoutMs, start } of AGENTS) {
  describe(`a ${name} pane’s Chat on the phone at 390×844`, () => {
    it('Chat is the default once its session is found: the person’s words, markdown, a bash card with folded output, a live turn', async () => {
      await using work = await tempDir(`collie-web-${file}-chat-`);
      const dist = join(work.path, 'dist');
      await buildWeb(dist);
      await using tmux = await startTmux();
      await using api = await startChatApi();
      await using agent = await start(tmux, api);
      await using state = await tempDir('collie-state-');
      const id = `${tmux.name}:${agent.paneId}`;
      api.script(chatReply(REPLY));
      await agent.submit('look at the parser');
      await agent.waitForScreen((s) => s.includes('Findings'), agentMs);
      api.script(...chatToolCall('bash', { command: 'seq 1 40', description: 'Count' }));
      await agent.submit('count to forty');
      await agent.waitForScreen((s) => s.includes('Tool finished'), agentMs);

      await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
      await untilPane(bridge.hub, `the ${name} pane`, (p) => p.id === id && p.harness === harness, 60_000);
      await using phone = await openPhone(bridge, state.path, { timeout: 60_000 });
      const { page } = phone;
      await page.goto(`/#/pane/${encodeURIComponent(id)}`);

      const chat = page.locator('.pane-chat-scroll');
      await chat.locator('.chat-user', { hasText: 'look at the parser' }).waitFor();
      await chat.locator('.chat-markdown').getByRole('heading', { name: 'Findings' }).waitFor();
      expect(await page.getByRole('tab', { name: 'Chat' }).getAttribute('aria-selected')).toBe('true');
      expect(await chat.locator('script').count()).toBe(0);
      expect(await chat.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(['https://example.com/docs']);
      const tool = chat.locator('.chat-tool', { hasText: 'seq 1 40' });
      await tool.locator('.tool-status', { hasText: 'done' }).waitFor();
      await tool.locator('.tool-fold').waitFor();
      expect(await tool.locator('.tool-output-head').textContent()).toBe(Array.from({ length: 12 }, (_, i) => String(i + 1)).join('\n'));

      // Live: a turn typed at the terminal shows up while the page is open.
      api.script(chatReply('Forty it is.'));
      await agent.submit('thanks');
      await chat.locator('.chat-markdown', { hasText: 'Forty it is.' }).waitFor();
      await chat.locator('.chat-user', { hasText: 'thanks' }).waitFor();
      await axeBoth(page, '.pane-chat');
      // The chat followed to its foot: with the page scrolled down, the live answer sits above the composer.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const [last, dock] = await Promise.all([chat.locator('.chat-markdown', { hasText: 'Forty it is.' }).boundingBox(), page.locator('.dock').boundingBox()]);
      expect(last && dock && last.y > 0 && last.y + last.height <= dock.y).toBe(true);
      await page.screenshot({ path: artifactPath(`web/pane-chat-${file}-390.png`) });
    }, timeoutMs);
  });
}
