import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { startBridge } from '@collie/bridge';
import type { ApiRequest, ScriptBlock, Turn } from '@collie/testkit';
import { artifactPath, startClaude, startMessagesApi, startTmux, tempDir, testBridgeOptions, testDevice } from '@collie/testkit';
import { walkyWords } from '@collie/protocol';
import { describe, expect, it } from 'vitest';
import { fakePane } from '../../bridge/test/walky/fake-pane';
import { collieBin, walkyEnv } from '../../bridge/test/walky/kit';
import { buildWeb, showTerminal, untilPane, openPaneMenu } from './e2e-setup';
import { openPhone } from './phone-rig';

const bash = (command: string): Turn => ({ blocks: [{ type: 'tool_use', name: 'Bash', input: { command, description: 'walky talky' } } as ScriptBlock], stopReason: 'tool_use' });
const say = (text: string): Turn => ({ blocks: [{ type: 'text', text }] });
const idIn = (s: string) => /wt_[a-z0-9]{12}/.exec(s)?.[0] ?? 'wt_none';
const lastResult = (r: ApiRequest) => r.toolResults[r.toolResults.length - 1]?.text ?? '';

describe('a tool card that ran collie walky, at 390×844 (issue 7)', () => {
  it('wears the walky talky badge; reply shows "Message to" and the receipt from the log; inbox <id> shows the card; an unknown id stays plain; a logged id in the agent\'s markdown is a chip', async () => {
    await using work = await tempDir('collie-web-walky-tool-');
    const dist = join(work.path, 'dist');
    await buildWeb(dist);
    await using tmux = await startTmux();
    await using api = await startMessagesApi();
    await using state = await tempDir('collie-state-');
    const env = walkyEnv(state.path);
    const sender = await fakePane(tmux, state.path, 'sender', 'fresh-idle', env);
    const quiet = await fakePane(tmux, state.path, 'quiet', 'fresh-idle', env);
    const bin = await collieBin(state.path);
    await using claude = await startClaude(tmux, api, { session: 'target', env: { ...env, PATH: `${bin}:${process.env.PATH ?? ''}` }, allow: ['Bash(collie walky:*)'] });
    const device = await testDevice(state.path, 'phone-altan');
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
    const id = `${tmux.name}:${claude.paneId}`;
    const T = await untilPane(bridge.hub, 'the idle Claude pane', (p) => p.id === id && p.harness === 'claude' && (p.state === 'idle' || p.state === 'done') && p.draft === null, 60_000);
    const S = await untilPane(bridge.hub, 'the sender', (p) => p.tmuxId === sender.paneId && p.harness === 'claude', 60_000);
    const Q = await untilPane(bridge.hub, 'a pane no message reached', (p) => p.tmuxId === quiet.paneId && p.harness === 'claude', 60_000);
    const unknown = 'wt_000000000000';

    // The Claude pane's agent reads the message, replies, looks up an id the log does not hold,
    // and ends its turn with markdown naming its reply's id: in bold, a code span and a code block.
    let told = 'wt_none';
    const closing = (rid: string) => `Replied as **${rid}**. Check it with \`collie walky status ${rid}\`; ${unknown} is not a message here.\n\n[walky-talky ${unknown}] is only printed.\n\n\`\`\`\ncollie walky inbox ${rid}\n\`\`\``;
    api.script(
      (req) => bash(`collie walky inbox ${idIn(req.prompt)}`),
      (req) => bash(`collie walky reply ${idIn(lastResult(req))} "Build is green."`),
      (req) => {
        told = lastResult(req).split('\n')[0]!;
        return bash(`collie walky status ${unknown}`);
      },
      () => say(closing(told)),
    );
    const sent = await sender.collie(['walky', 'send', T.address, 'Please check the build.']);
    expect(sent.code, sent.out + sent.err).toBe(0);
    const asked = sent.out.split('\n')[0]!;
    const replied = await api.waitForRequest((r) => r.kind === 'main' && /^wt_[a-z0-9]{12}\n/.test(lastResult(r)) && lastResult(r).includes(S.address), 90_000);
    const replyId = lastResult(replied).split('\n')[0]!;
    await api.waitForRequest((r) => r.kind === 'main' && lastResult(r).includes(`no record of ${unknown}`), 60_000);
    expect(told).toBe(replyId);

    await using phone = await openPhone(bridge, device, { timeout: 30_000 });
    const { page } = phone;
    await page.goto(`/#/pane/${encodeURIComponent(id)}`);

    const tools = page.locator('.pane-chat .wk-tool');
    await expect.poll(() => tools.count(), { timeout: 60_000 }).toBe(3);
    expect(await tools.locator('.tool-badge').allTextContents()).toEqual(['walky talky', 'walky talky', 'walky talky']);
    // No badge on a tool card that ran something else, and none on the message cards.
    expect(await page.locator('.pane-chat .tool-badge').count()).toBe(3);

    // inbox <id>: the message's card under the tool card, its body from the log.
    const inbox = tools.filter({ hasText: `collie walky inbox ${asked}` });
    const card = inbox.locator(`.wk-card[data-message="${asked}"]`);
    await card.waitFor();
    expect(await card.locator('.wk-card-body').textContent()).toBe('Please check the build.');
    expect(await card.locator('.wk-kind').textContent()).toBe('agent');

    // reply: one line, "Message to" the pane and the receipt state as the log has it now.
    const reply = tools.filter({ hasText: `collie walky reply ${asked}` });
    const line = reply.locator(`.wk-tool-line[data-message="${replyId}"]`);
    await line.waitFor();
    const bareS = S.address.slice(0, S.address.lastIndexOf('#'));
    const logged = async () => {
      const all = (await page.evaluate(() => fetch('/api/walky/messages').then((r) => r.json()))) as { messages: { id: string; state: 'accepted' | 'delivered' | 'inbox-only' | 'refused' | 'unknown'; reason: string | null }[] };
      const m = all.messages.find((x) => x.id === replyId)!;
      return `Message to ${bareS}: ${walkyWords(m.state, m.reason)}`;
    };
    await expect.poll(async () => (await line.textContent()) === (await logged()), { timeout: 60_000 }).toBe(true);
    expect(await line.textContent()).toMatch(new RegExp(`^Message to ${bareS.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `));

    // status of an id the log does not hold: the badge and the plain output only, the id no chip.
    const status = tools.filter({ hasText: `collie walky status ${unknown}` });
    expect(await status.locator('.wk-tool-line, .wk-card, .wk-chip').count()).toBe(0);
    expect(await status.locator('.tool-output').textContent()).toContain(`no record of ${unknown}`);

    // A logged id in a tool's output is a chip (a full touch target) that opens the Messages sheet on it.
    const chip = reply.locator('.tool-output .wk-chip', { hasText: replyId });
    await chip.waitFor();
    expect((await chip.boundingBox())!.height).toBeGreaterThanOrEqual(44);

    // The agent's own markdown: the logged id is a chip in bold, in a code span and in a code block; the id the log does not hold stays text.
    const md = page.locator('.pane-chat .chat-markdown', { hasText: 'Replied as' });
    await md.waitFor({ timeout: 60_000 });
    const mdChips = md.locator('.wk-chip');
    await expect.poll(() => mdChips.count(), { timeout: 30_000 }).toBe(3);
    expect(await mdChips.allTextContents()).toEqual([replyId, replyId, replyId]);
    expect(await md.locator('strong .wk-chip, p code .wk-chip, pre code .wk-chip').count()).toBe(3);
    expect(await md.textContent()).toContain(`${unknown} is not a message here`);
    expect(await md.locator('.wk-chip', { hasText: unknown }).count()).toBe(0);
    for (const c of await mdChips.all()) expect((await c.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    expect(await mdChips.first().getAttribute('aria-label')).toBe(`Open message ${replyId}`);

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await md.locator('pre .wk-chip').scrollIntoViewIfNeeded();
      await page.screenshot({ path: artifactPath(`web/walky-chat-text-chip-${scheme}.png`) });
      await reply.scrollIntoViewIfNeeded();
      await page.screenshot({ path: artifactPath(`web/walky-tool-card-${scheme}.png`) });
      const result = await new AxeBuilder({ page }).include('.pane-chat').analyze();
      const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(bad, scheme).toEqual([]);
    }
    await chip.click();
    const sheet = page.getByRole('dialog', { name: 'Messages' });
    await sheet.waitFor();
    await sheet.locator(`[data-row="${replyId}"]`).waitFor();
    await page.screenshot({ path: artifactPath('web/walky-tool-chip-sheet.png') });
    await sheet.getByRole('button', { name: 'Close' }).click();
    await sheet.waitFor({ state: 'detached' });

    // A chip in the agent's text opens the sheet on that message, marked.
    await md.locator('pre .wk-chip').click();
    await sheet.locator(`[data-row="${replyId}"].wk-marked`).waitFor();
    await page.screenshot({ path: artifactPath('web/walky-chat-text-chip-sheet.png') });
    await sheet.getByRole('button', { name: 'Close' }).click();
    await sheet.waitFor({ state: 'detached' });

    // A header the agent merely printed, for an id the log does not hold: in the Terminal view the quiet mark, no card.
    await showTerminal(page);
    const mark = page.locator('.wk-unlogged', { hasText: unknown });
    await mark.waitFor({ timeout: 60_000 });
    expect(await mark.textContent()).toBe(`${unknown} no log record on this machine`);
    expect(await page.locator(`.wk-card[data-message="${unknown}"]`).count()).toBe(0);
    await mark.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifactPath('web/walky-unlogged-mark.png') });

    // The sender's pane: its Messages sheet, from the menu, holds the reply that reached it, "reply to" the id it answers.
    const messagesOf = async (paneId: string) => {
      await page.goto(`/#/pane/${encodeURIComponent(paneId)}`);
      await openPaneMenu(page);
      await page.getByRole('button', { name: 'Messages' }).click();
      await sheet.waitFor();
    };
    await messagesOf(S.id);
    const got = sheet.locator(`[data-row="${replyId}"]`);
    await got.waitFor();
    expect(await got.locator('.wk-card-title').textContent()).toBe(`Message from ${T.label}`);
    expect(await got.locator('.wk-reply-to').textContent()).toBe(`reply to ${asked}`);
    expect(await got.locator('.wk-card-body').textContent()).toBe('Build is green.');
    await page.screenshot({ path: artifactPath('web/walky-sheet-reply-to.png') });
    await sheet.getByRole('button', { name: 'Close' }).click();
    await sheet.waitFor({ state: 'detached' });

    // A pane nothing reached and that sent nothing: the empty-state sentence.
    await messagesOf(Q.id);
    await sheet.getByText('No messages for this pane yet.').waitFor();
    expect(await sheet.locator('[data-row]').count()).toBe(0);
    await page.screenshot({ path: artifactPath('web/walky-sheet-empty.png') });
  }, 300_000);
});
