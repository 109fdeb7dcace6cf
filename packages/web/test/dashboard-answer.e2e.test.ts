import { join } from 'node:path';
import { startBridge } from '@collie/bridge';
import {
  agentShell,
  artifactPath,
  bashPermission,
  codexMissing,
  launchChromium,
  phoneContext,
  startClaude,
  startCodex,
  startMessagesApi,
  startResponsesApi,
  startTmux,
  tempDir,
  testBridgeOptions,
  testDevice,
  type TmuxServer,
} from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { axeBoth, buildWeb, untilPane } from './e2e-setup';

/** One real agent, offline against its scripted API: how to start it, make it ask, and see its command ran once. */
interface Rig {
  readonly name: string;
  start(tmux: TmuxServer): Promise<{ paneId: string; ask(): Promise<void>; ran(): Promise<number>; [Symbol.asyncDispose](): Promise<void> }>;
}

const COMMAND = 'touch made-from-the-dashboard';

const claudeRig: Rig = {
  name: 'Claude Code',
  async start(tmux) {
    const api = await startMessagesApi();
    const claude = await startClaude(tmux, api, { width: 100, height: 40 });
    return {
      paneId: claude.paneId,
      async ask() {
        api.script(bashPermission(COMMAND));
        await claude.submit('make the marker file');
      },
      async ran() {
        await api.waitForRequest((q) => q.kind === 'main' && q.toolResults.some((t) => !t.isError), 30_000);
        return api.requests.filter((q) => q.kind === 'main' && q.toolResults.length > 0).length;
      },
      async [Symbol.asyncDispose]() {
        await claude[Symbol.asyncDispose]();
        await api[Symbol.asyncDispose]();
      },
    };
  },
};

const codexRig: Rig = {
  name: 'Codex',
  async start(tmux) {
    const api = await startResponsesApi();
    const codex = await startCodex(tmux, api);
    return {
      paneId: codex.paneId,
      async ask() {
        api.script(...agentShell(COMMAND, { reason: 'Create the marker file' }));
        await codex.submit('make the marker file');
      },
      async ran() {
        const req = await api.waitForRequest((q) => q.kind === 'main' && q.toolOutputs.length > 0, 30_000);
        expect(req.toolOutputs.at(-1)).toMatch(/exited with code 0/u);
        return api.requests.filter((q) => q.kind === 'main' && q.toolOutputs.length > 0).length;
      },
      async [Symbol.asyncDispose]() {
        await codex[Symbol.asyncDispose]();
        await api[Symbol.asyncDispose]();
      },
    };
  },
};

/**
 * Issue 27: a blocked row on the dashboard offers the card's answers, so the commonest ask needs
 * no page change. On the real Claude Code and Codex TUIs, a real bridge and Chromium at 390×844:
 * the wider grant only arms on its first tap (nothing is sent), the narrowest yes answers with one
 * tap, the command runs once, and the row says "Allowed once: <command>".
 */
describe('answering from the dashboard', () => {
  for (const rig of [claudeRig, codexRig]) {
    const skip = rig === codexRig ? codexMissing() : null;
    it.skipIf(skip !== null)(`${rig.name}: one tap on the narrowest yes; a wider grant takes two`, async () => {
      await using work = await tempDir('collie-dash-answer-');
      const dist = join(work.path, 'dist');
      await buildWeb(dist);
      await using tmux = await startTmux();
      await using agent = await rig.start(tmux);
      await using state = await tempDir('collie-state-');
      await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
      const id = `${tmux.name}:${agent.paneId}`;
      await untilPane(bridge.hub, 'the pane idle', (p) => p.id === id && (p.state === 'idle' || p.state === 'done') && p.dialog === null, 60_000);

      await using browser = await launchChromium();
      await using context = await phoneContext(browser, { baseURL: bridge.url });
      const device = await testDevice(state.path);
      await context.addCookies([device.cookie(bridge.url)]);
      // The answers the bridge took (their receipts in its snapshot).
      const answersSent = async () => ((await (await fetch(`${bridge.url}/api/snapshot`, { headers: device.headers })).json()) as { sends: { kind: string }[] }).sends.filter((s) => s.kind === 'answer');
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      const problems: string[] = [];
      page.on('pageerror', (error) => void problems.push(error.message));
      await page.goto('/');
      await page.locator('.conn-live').waitFor();

      await agent.ask();
      const blocked = await untilPane(bridge.hub, 'the permission card', (p) => p.id === id && p.state === 'blocked' && p.card?.kind === 'permission' && p.card.answerable, 60_000);
      const answers = page.getByRole('group', { name: `Answer ${blocked.label}` });
      await answers.waitFor();
      const labels = await answers.locator('.option-label').allTextContents();
      expect(labels[0]).toMatch(/^1\. Yes/);
      expect(labels.some((l) => /^\d\. No/.test(l))).toBe(true);
      await axeBoth(page, '.row-answers');
      await page.emulateMedia({ colorScheme: 'light' });
      await page.screenshot({ path: artifactPath(`web/dashboard-answer-${rig === codexRig ? 'codex' : 'claude'}.png`) });

      // A wider grant: its first tap only arms it; nothing reaches the agent.
      const wider = answers.locator('.option-wider').first();
      await wider.click();
      await wider.locator('.option-reach', { hasText: 'Tap again to confirm' }).waitFor();
      expect(bridge.hub.panes.get(id)?.state).toBe('blocked');
      expect(await answersSent()).toEqual([]);

      // The narrowest yes: one tap, answered, the command runs once.
      await answers.locator('.option-primary').click();
      await page.locator('.row-answered', { hasText: `Allowed once: ${COMMAND}` }).waitFor();
      expect(await agent.ran()).toBe(1);
      expect(await answersSent()).toHaveLength(1);
      await page.screenshot({ path: artifactPath(`web/dashboard-answered-${rig === codexRig ? 'codex' : 'claude'}.png`) });
      expect(problems).toEqual([]);
    }, 240_000);
  }
});
