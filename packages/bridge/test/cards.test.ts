import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Dialog, DialogCard } from '@collie/protocol';
import { askUserQuestion, bashPermission, startClaude, startMessagesApi, startTmux, waitForScreen, type ApiRequest, type MessagesApi, type Question, type TmuxServer } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { answerPlan, readCard } from '../src/harness/card';

/**
 * Claude drops keys that reach a dialog in its first moments (measured on 2.1.334: a key
 * ~120 ms after the dialog first shows is lost, from ~140 ms on it is taken), and nothing on
 * screen marks the end of that guard. So a card counts as ready once the same dialog has
 * stayed on screen this long.
 */
const SETTLED_MS = 500;

/** The card on the pane once a dialog of `kind` (and, for a wizard, tab `tab`) has stayed on screen for SETTLED_MS. */
async function settledCard(tmux: TmuxServer, pane: string, want: { kind: Dialog; tab?: number }, timeoutMs = 15_000): Promise<DialogCard> {
  const deadline = Date.now() + timeoutMs;
  let since = 0;
  let last: DialogCard | null = null;
  for (;;) {
    const card = readCard('claude', await tmux.capture(pane, { escapes: true }));
    const fits = card !== null && card.kind === want.kind && (want.tab === undefined || card.activeTab === want.tab);
    if (!fits || card.signature !== last?.signature) since = Date.now();
    last = fits ? card : null;
    if (last && Date.now() - since >= SETTLED_MS) return last;
    if (Date.now() > deadline) throw new Error(`no settled ${want.kind} card; last screen:\n${await tmux.capture(pane)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Press the plan for `answer` on `card`, one key per `send-keys`, each after the last one was
 * drawn, as the bridge does (`pressKeys`): keys that reach Claude in one read are taken as one
 * unknown key, which a loaded machine makes happen even 50 ms apart.
 */
async function answer(tmux: TmuxServer, pane: string, card: DialogCard, given: { option?: number; toggle?: number[] }): Promise<string[]> {
  const plan = answerPlan('claude', card, given);
  if (!plan.ok) throw new Error(`no plan: ${plan.reason}`);
  for (const key of plan.steps) {
    const before = await tmux.capture(pane, { escapes: true });
    await tmux.sendKeys(pane, key);
    await waitForScreen(() => tmux.capture(pane, { escapes: true }), (s) => s !== before, { timeoutMs: 2_000, what: `pane ${pane} after ${key}` }).catch(() => undefined);
  }
  return plan.steps;
}

const resultOf = (api: MessagesApi) => api.waitForRequest((r: ApiRequest) => r.kind === 'main' && r.toolResults.length > 0, 20_000);
/** `"Which color?"="Green"` in AskUserQuestion's tool result, as a list of the labels given. */
const answered = (req: ApiRequest, question: string) => {
  const m = new RegExp(`"${question.replace(/[?]/g, '\\?')}"="([^"]*)"`).exec(req.toolResults[0]?.text ?? '');
  return m?.[1]?.split(', ').sort() ?? [];
};
const option = (label: string) => ({ label, description: `Pick ${label}.` });

describe('dialog cards answered on the real Claude Code TUI', () => {
  it('a Bash permission answered with option 1 runs the command', async () => {
    await using tmux = await startTmux();
    await using api = await startMessagesApi();
    await using claude = await startClaude(tmux, api);
    api.script(bashPermission('touch made-by-card'));
    await claude.submit('make the file');

    const card = await settledCard(tmux, claude.paneId, { kind: 'permission' });
    expect(card).toMatchObject({ title: 'Bash command', question: 'Do you want to proceed?', answerable: true });
    expect(card.body).toContain('touch made-by-card');
    expect(card.options[0]?.label).toBe('Yes');
    expect(await answer(tmux, claude.paneId, card, { option: 1 })).toEqual(['1']);

    const req = await resultOf(api);
    expect(req.toolResults[0]?.isError).toBe(false);
    expect(existsSync(join(claude.cwd, 'made-by-card'))).toBe(true);
  });

  it('a single-select question answered with option 2', async () => {
    await using tmux = await startTmux();
    await using api = await startMessagesApi();
    await using claude = await startClaude(tmux, api);
    api.script(askUserQuestion([{ question: 'Which color?', header: 'Color', options: [option('Red'), option('Green'), option('Blue')] }]));
    await claude.submit('ask me a color');

    const card = await settledCard(tmux, claude.paneId, { kind: 'select' });
    expect(card).toMatchObject({ title: 'Color', question: 'Which color?' });
    expect(card.options.map((o) => o.label)).toEqual(['Red', 'Green', 'Blue', 'Type something.', 'Chat about this']);
    expect(card.options[1]?.description).toBe('Pick Green.');
    await answer(tmux, claude.paneId, card, { option: 2 });

    expect(answered(await resultOf(api), 'Which color?')).toEqual(['Green']);
  });

  it('a multi-select answered with toggles [1, 3]', async () => {
    await using tmux = await startTmux();
    await using api = await startMessagesApi();
    await using claude = await startClaude(tmux, api);
    const toppings = ['Cheese', 'Olives', 'Peppers', 'Ham'].map(option);
    api.script(askUserQuestion([{ question: 'Which toppings?', header: 'Toppings', options: toppings, multiSelect: true }]));
    await claude.submit('ask me for toppings');

    const card = await settledCard(tmux, claude.paneId, { kind: 'multiselect' });
    expect(card.options.slice(0, 4).map((o) => [o.label, o.checked])).toEqual(toppings.map((t) => [t.label, false]));
    expect(await answer(tmux, claude.paneId, card, { toggle: [1, 3] })).toEqual(['1', '3', 'Tab', '1']);

    expect(answered(await resultOf(api), 'Which toppings?')).toEqual(['Cheese', 'Peppers']);
  });

  it('a two-question wizard answered tab by tab, then submitted from the review tab', async () => {
    await using tmux = await startTmux();
    await using api = await startMessagesApi();
    await using claude = await startClaude(tmux, api);
    const questions: Question[] = [
      { question: 'Which size?', header: 'Size', options: [option('Small'), option('Large')] },
      { question: 'Which crust?', header: 'Crust', options: [option('Thin'), option('Thick'), option('Stuffed')] },
    ];
    api.script(askUserQuestion(questions));
    await claude.submit('ask me about the pizza');

    const first = await settledCard(tmux, claude.paneId, { kind: 'wizard', tab: 0 });
    expect(first.tabs.map((t) => t.label)).toEqual(['Size', 'Crust', 'Submit']);
    expect(first).toMatchObject({ title: 'Size', question: 'Which size?' });
    await answer(tmux, claude.paneId, first, { option: 2 });

    const second = await settledCard(tmux, claude.paneId, { kind: 'wizard', tab: 1 });
    expect(second).toMatchObject({ title: 'Crust', question: 'Which crust?', tabs: [{ label: 'Size', answered: true }, { label: 'Crust' }, { label: 'Submit' }] });
    await answer(tmux, claude.paneId, second, { option: 3 });

    const review = await settledCard(tmux, claude.paneId, { kind: 'review', tab: 2 });
    expect(review.body).toEqual(['● Which size?', '→ Large', '● Which crust?', '→ Stuffed']);
    expect(review.options.map((o) => o.label)).toEqual(['Submit answers', 'Cancel']);
    expect(api.requests.some((r) => r.toolResults.length > 0)).toBe(false);
    await answer(tmux, claude.paneId, review, { option: 1 });

    const req = await resultOf(api);
    expect(answered(req, 'Which size?')).toEqual(['Large']);
    expect(answered(req, 'Which crust?')).toEqual(['Stuffed']);
  });
});
