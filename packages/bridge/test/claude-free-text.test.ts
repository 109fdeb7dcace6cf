import type { Dialog, Pane } from '@collie/protocol';
import { askUserQuestion, bashPermission, planApproval, startClaude, startMessagesApi, type ApiRequest, type MessagesApi, type StartClaudeOptions, type TmuxServer } from '@collie/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestBridge, until } from './harness';
import { liveDesk, type LiveDesk } from './live-rig';
import { call, finalReceipt } from './send-helpers';

/**
 * Options that take words, answered from the card with `{ option, text }` on the real Claude
 * Code TUI: the bridge readies the field, types, checks the field shows the words, submits;
 * the scripted API then receives them in the tool result.
 */
describe('free-text answers on the real Claude Code TUI', () => {
  let desk: LiveDesk;
  let tmux: TmuxServer;
  // Each test scripts its own API: a turn one test left unused never answers the next.
  let api: MessagesApi;
  let bridge: TestBridge;

  beforeAll(async () => {
    desk = await liveDesk('collie-free-text');
    ({ tmux } = desk);
    bridge = await desk.startBridge();
  }, 60_000);

  afterAll(async () => {
    await desk?.[Symbol.asyncDispose]();
    await api?.close();
  });

  /** A fresh Claude pane; the bridge's id for it; and its blocked card of `kind` once the bridge reads it. */
  const open = async (opts: StartClaudeOptions = {}) => {
    await api?.close();
    api = await startMessagesApi();
    const claude = await startClaude(tmux, api, opts);
    const id = `${tmux.name}:${claude.paneId}`;
    const blocked = (kind: Dialog) =>
      until(bridge.hub, `a ${kind} card`, (h) => { const p = h.panes.get(id); return p?.state === 'blocked' && p.dialog === kind && p.card?.answerable && p; }, 30_000);
    return { claude, id, blocked };
  };
  const resultAfter = (seq: number) => api.waitForRequest((r: ApiRequest) => r.kind === 'main' && r.seq > seq && r.toolResults.length > 0, 20_000);
  const lastSeq = () => api.requests.at(-1)?.seq ?? -1;
  const option = (pane: Pane, label: string) => pane.card!.options.find((o) => o.label === label || o.amend === label)!;

  it('AskUserQuestion: "Type something." answered with words', async () => {
    const { claude, id, blocked } = await open();
    await using _ = claude;
    api.script(askUserQuestion([{ question: 'Which color?', header: 'Color', options: [{ label: 'Red', description: 'Warm.' }, { label: 'Blue', description: 'Cool.' }] }]));
    await claude.submit('ask me a color');
    const pane = await blocked('select');
    const field = option(pane, 'Type something.');
    expect(field).toMatchObject({ n: 3, freeText: true });
    const seq = lastSeq();
    await call(bridge, id, 'answer', { signature: pane.card!.signature, option: field.n, text: 'Teal, like the sea', request_id: 'q-text' });
    const receipt = await finalReceipt(bridge, 'q-text');
    expect(receipt).toMatchObject({ state: 'typed', outcome: 'answered', summary: 'option 3: Type something.: Teal, like the sea' });
    expect((await resultAfter(seq)).toolResults[0]?.text).toContain('"Which color?"="Teal, like the sea"');
  });

  it('a permission: "No, and tell Claude what to do differently" with words', async () => {
    const { claude, id, blocked } = await open();
    await using _ = claude;
    api.script(bashPermission('touch refused-by-words'));
    await claude.submit('run the command');
    const pane = await blocked('permission');
    const no = option(pane, 'No, and tell Claude what to do differently');
    expect(no.label).toBe('No');
    expect(pane.card!.options[0]?.amend).toBe('Yes, and tell Claude what to do next');
    const seq = lastSeq();
    await call(bridge, id, 'answer', { signature: pane.card!.signature, option: no.n, text: 'use echo instead', request_id: 'p-text' });
    expect((await finalReceipt(bridge, 'p-text')).outcome).toBe('answered');
    const result = (await resultAfter(seq)).toolResults[0];
    expect(result?.isError).toBe(true);
    expect(result?.text).toMatch(/the user said:\nuse echo instead$/);
  });

  it('plan approval: "Tell Claude what to change" with words keeps planning', async () => {
    const { claude, id, blocked } = await open({ args: ['--permission-mode', 'plan'] });
    await using _ = claude;
    api.script(planApproval('# Plan\n\n1. Write the file\n2. Test it\n'));
    await claude.submit('plan the change');
    const pane = await blocked('plan');
    const change = option(pane, 'Tell Claude what to change');
    expect(change.freeText).toBe(true);
    const seq = lastSeq();
    await call(bridge, id, 'answer', { signature: pane.card!.signature, option: change.n, text: 'add a test first', request_id: 'plan-text' });
    expect((await finalReceipt(bridge, 'plan-text')).outcome).toBe('answered');
    const result = (await resultAfter(seq)).toolResults[0];
    expect(result?.isError).toBe(true);
    expect(result?.text).toMatch(/the user said:\nadd a test first$/);
  });

  it('words for an option that takes none are refused in words, nothing pressed', async () => {
    const { claude, id, blocked } = await open();
    await using _ = claude;
    api.script(askUserQuestion([{ question: 'Which size?', header: 'Size', options: [{ label: 'Small', description: 'S.' }, { label: 'Large', description: 'L.' }] }]));
    await claude.submit('ask me a size');
    const pane = await blocked('select');
    await call(bridge, id, 'answer', { signature: pane.card!.signature, option: 1, text: 'not a text field', request_id: 'bad-text' });
    expect((await finalReceipt(bridge, 'bad-text')).outcome).toBe('not sent: option 1 ("Small") takes no words');
    expect(await claude.capture()).toMatch(/Which size\?/);
    await claude.press('Escape', (s) => !/Which size\?/.test(s) || /Interrupted|declined/i.test(s)).catch(() => undefined);
  });
});
