import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dialog, Pane } from '@collie/protocol';
import { claudeInputReady, plainReply, startClaude, startMessagesApi, startTmux, tempDir, type ClaudeDialogs, type ClaudePane, type MessagesApi, type TempDir, type TmuxServer } from '@collie/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgeFor, type TestBridge, until } from './harness';
import { call, finalReceipt } from './send-helpers';

/**
 * Every screen the real Claude Code 2.1.334 can raise before its input box, started in a config
 * that leaves it on (the testkit's `dialogs`), read by the bridge as `blocked` with a card, and
 * answered through `POST /api/panes/:id/answer`.
 */
describe('Claude Code startup dialogs, answered from the card', () => {
  let tmux: TmuxServer;
  let api: MessagesApi;
  let state: TempDir;
  let bridge: TestBridge;
  let n = 0;

  beforeAll(async () => {
    tmux = await startTmux();
    api = await startMessagesApi();
    state = await tempDir('collie-state');
    bridge = await bridgeFor(tmux.tmpDir, state.path);
  }, 60_000);

  afterAll(async () => {
    await bridge?.stop();
    await api?.close();
    await tmux?.kill();
    await state?.remove();
  });

  const start = (dialogs: ClaudeDialogs, first: RegExp) => startClaude(tmux, api, { dialogs, ready: first });
  const idOf = (claude: ClaudePane) => `${tmux.name}:${claude.paneId}`;

  /** The pane once the bridge reads a blocked card of `kind` whose question matches `asks`. */
  const blockedOn = (claude: ClaudePane, kind: Dialog, asks: RegExp) =>
    until(
      bridge.hub,
      `a ${kind} card asking ${asks}`,
      (h) => {
        const p = h.panes.get(idOf(claude));
        return p?.state === 'blocked' && p.dialog === kind && p.card && asks.test(`${p.card.title} ${p.card.question}`) && p;
      },
      30_000,
    );

  /** Answer the pane's card with the option labelled `label`; resolves with the final receipt. */
  const answer = async (claude: ClaudePane, pane: Pane, label: string) => {
    const option = pane.card!.options.find((o) => o.label === label);
    expect(option, `option "${label}" among ${pane.card!.options.map((o) => o.label).join(' | ')}`).toBeDefined();
    const request_id = `startup-${++n}`;
    const r = await call(bridge, idOf(claude), 'answer', { signature: pane.card!.signature, option: option!.n, request_id });
    expect(r.outcome).toMatch(/^(typing|answered)$/);
    return finalReceipt(bridge, request_id);
  };

  /** The pane idle at its input box: the agent moved on past its startup screens. */
  const atInputBox = async (claude: ClaudePane) => {
    await claude.waitForScreen(claudeInputReady, 20_000);
    return until(bridge.hub, 'the pane idle', (h) => { const p = h.panes.get(idOf(claude)); return p?.state === 'idle' && p.dialog === null && p; }, 20_000);
  };

  const stateOf = async (claude: ClaudePane) => JSON.parse(await readFile(join(claude.configDir, '.claude.json'), 'utf8')) as Record<string, unknown>;

  it('onboarding: the theme picker, then the security notes', async () => {
    await using claude = await start({ onboarding: true }, /Choose the text style/);
    const theme = await blockedOn(claude, 'setup', /Choose the text style/);
    expect(theme.card!.options.map((o) => o.label)).toEqual([
      'Auto (match terminal)',
      'Dark mode',
      'Light mode',
      'Dark mode (colorblind-friendly)',
      'Light mode (colorblind-friendly)',
      'Dark mode (ANSI colors only)',
      'Light mode (ANSI colors only)',
    ]);
    expect((await answer(claude, theme, 'Light mode')).outcome).toBe('answered');

    const notes = await blockedOn(claude, 'setup', /Security notes/);
    expect(notes.card!.options.map((o) => o.label)).toEqual(['Continue']);
    expect(notes.card!.body.join(' ')).toContain('Claude can make mistakes.');
    await answer(claude, notes, 'Continue');
    await atInputBox(claude);
    expect(await stateOf(claude)).toMatchObject({ hasCompletedOnboarding: true });
    expect(JSON.parse(await readFile(join(claude.configDir, 'settings.json'), 'utf8'))).toMatchObject({ theme: 'light' });
  });

  it('folder trust: "Yes, I trust this folder"', async () => {
    await using claude = await start({ trust: true }, /Accessing workspace/);
    const trust = await blockedOn(claude, 'trust', /Is this a project you created or one you trust\?/);
    expect(trust.card!.options.map((o) => o.label)).toEqual(['No, exit', 'Yes, I trust this folder']);
    await answer(claude, trust, 'Yes, I trust this folder');
    await atInputBox(claude);
    expect(await stateOf(claude)).toMatchObject({ projects: { [claude.cwd]: { hasTrustDialogAccepted: true } } });
  });

  it('the API key: "Yes" uses it, and the next turn reaches the scripted API with it', async () => {
    await using claude = await start({ apiKey: true }, /Do you want to use this API key\?/);
    const key = await blockedOn(claude, 'setup', /Do you want to use this API key\?/);
    expect(key.card).toMatchObject({ title: 'Detected a custom API key in your environment', answerable: true });
    expect(key.card!.options.map((o) => o.label)).toEqual(['Yes', 'No (recommended)']);
    await answer(claude, key, 'Yes');
    await atInputBox(claude);
    expect(await stateOf(claude)).toMatchObject({ customApiKeyResponses: { approved: ['y-0000000000000000AA'] } });

    api.script(plainReply('Key accepted.'));
    await claude.submit('are you there');
    const req = await api.waitForRequest((r) => r.kind === 'main' && r.prompt === 'are you there', 20_000);
    expect(req.headers['x-api-key']).toMatch(/0000000000000000AA$/);
  });

  it('the auto-mode nudge: "No, keep manual mode" keeps the pinned mode', async () => {
    await using claude = await start({ autoModeNudge: true }, /Make auto mode your default permission mode\?/);
    const nudge = await blockedOn(claude, 'setup', /Make auto mode your default permission mode\?/);
    expect(nudge.card!.options.map((o) => o.label)).toEqual(['Yes, set auto mode as my default permission mode', 'No, keep manual mode']);
    await answer(claude, nudge, 'No, keep manual mode');
    await atInputBox(claude);
    expect(await claude.capture()).toMatch(/manual mode on/);
    expect(JSON.parse(await readFile(join(claude.configDir, 'settings.json'), 'utf8'))).toMatchObject({ permissions: { defaultMode: 'default' } });
  });

  it('a fresh config in turn: theme, notes, trust, then the box (no nudge on the first start)', async () => {
    await using claude = await start({ onboarding: true, trust: true, autoModeNudge: true }, /Choose the text style/);
    await answer(claude, await blockedOn(claude, 'setup', /Choose the text style/), 'Auto (match terminal)');
    await answer(claude, await blockedOn(claude, 'setup', /Security notes/), 'Continue');
    await answer(claude, await blockedOn(claude, 'trust', /trust\?/), 'Yes, I trust this folder');
    await atInputBox(claude);
    expect(await claude.capture()).toMatch(/manual mode on/);
  });

  it('the auto-mode nudge: "Yes" makes auto mode the default', async () => {
    await using claude = await start({ autoModeNudge: true }, /Make auto mode your default permission mode\?/);
    await answer(claude, await blockedOn(claude, 'setup', /Make auto mode/), 'Yes, set auto mode as my default permission mode');
    await atInputBox(claude);
    expect(await claude.capture()).toMatch(/auto mode on/);
  });
});
