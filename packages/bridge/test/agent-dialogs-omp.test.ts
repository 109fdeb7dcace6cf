import { describe, expect, it } from 'vitest';
import { chatToolCall, COLOUR_QUESTION, ompCommand, ompReady, SIZE_QUESTION } from '@collie/testkit';
import { answerCard, liveAgent, orExplain } from './agent-live';
import { ompKind } from './live-rig';
import { until } from './harness';
import { call } from './send-helpers';

/**
 * The real omp 18's `ask` tool through the real bridge: one question, two questions (a tab each,
 * then the Submit tab's review) and a multi-select question, each seen as blocked with a card
 * carrying the question's options and answered from it (omp's options carry no digits: the key
 * plan moves the pointer from the top). What the model gets back says which options were taken.
 */
const SLOW = 240_000;
const cmd = ompCommand();
const missing = 'missing' in cmd ? cmd.missing : null;
if (missing) console.log(`agent-dialogs-omp: skipped: ${missing}`);

describe.skipIf(missing !== null)('omp ask dialogs answered from the card', () => {
  const live = liveAgent(ompKind(), SLOW);
  /** The tool result of the ask the model asked last, once omp sends it back. */
  const toolResult = async (before: number) => {
    const req = await orExplain(live.api.waitForRequest((r) => r.seq > before && r.toolResults.length > 0, SLOW), live.tmux, live.agent.paneId, live.api);
    return req.toolResults[0]!.text;
  };
  const lastSeq = () => live.api.requests.at(-1)?.seq ?? 0;
  const turnOver = (n: number) => live.agent.waitForScreen((s) => s.split('Tool finished:').length - 1 >= n && ompReady(s), SLOW);

  it('one question: a select card with its options and their descriptions; the second option reaches the model', { timeout: 600_000 }, async () => {
    expect(live.paneOf()?.harness).toBe('omp');
    live.api.script(...chatToolCall('ask', { questions: [{ id: 'colour', ...COLOUR_QUESTION }] }, { text: 'One question first.' }));
    const before = lastSeq();
    await live.agent.submit('ask me something');
    const card = await orExplain(answerCard(live.bridge, live.id, (c) => c.kind === 'select', 2, SLOW), live.tmux, live.agent.paneId, live.api);
    expect(card).toMatchObject({ title: 'Ask', question: COLOUR_QUESTION.question, answerable: true });
    expect(card.options.map((o) => [o.label, o.description, o.freeText])).toEqual([
      ['Black', 'The classic coat', false],
      ['Sable', 'Golden brown', false],
      ['Other (type your own)', null, true],
    ]);
    expect(await toolResult(before)).toBe('User selected: Sable');
    await turnOver(1);
    await live.idle();
  });

  it('two questions: a wizard card per tab, then the review answered with Submit; both answers reach the model', { timeout: 600_000 }, async () => {
    live.api.script(...chatToolCall('ask', { questions: [{ id: 'colour', ...COLOUR_QUESTION }, { id: 'size', ...SIZE_QUESTION }] }, { text: 'Two questions first.' }));
    const before = lastSeq();
    await live.agent.submit('ask me two things');
    const first = await orExplain(answerCard(live.bridge, live.id, (c) => c.kind === 'wizard' && c.activeTab === 0, 2, SLOW), live.tmux, live.agent.paneId, live.api);
    expect(first.tabs.map((t) => t.label)).toEqual(['Colour', 'Size', 'Submit']);
    expect(first.question).toBe(COLOUR_QUESTION.question);
    const second = await answerCard(live.bridge, live.id, (c) => c.kind === 'wizard' && c.activeTab === 1, 2, SLOW);
    expect(second.question).toBe(SIZE_QUESTION.question);
    expect(second.options.map((o) => o.label)).toEqual(['Small', 'Large', 'Other (type your own)']);
    const review = await answerCard(live.bridge, live.id, (c) => c.kind === 'review', 1, SLOW);
    expect(review.body).toEqual(['1. Colour: Sable', '2. Size: Large']);
    expect(review.options.map((o) => o.label)).toEqual(['Submit']);
    const back = await toolResult(before);
    expect(back).toMatch(/colour.*Sable/su);
    expect(back).toMatch(/size.*Large/su);
    await turnOver(2);
    await live.idle();
  });

  it('a multi-select question: boxes 1 and 2 ticked from the card and submitted; a one-option answer is refused in words', { timeout: 600_000 }, async () => {
    live.api.script(...chatToolCall('ask', { questions: [{ id: 'colour', multi: true, ...COLOUR_QUESTION }] }, { text: 'Pick any.' }));
    const before = lastSeq();
    await live.agent.submit('ask me to pick several');
    const card = await orExplain(
      until(live.bridge.hub, 'a multi-select card', () => { const p = live.paneOf(); return p?.state === 'blocked' && p.card?.kind === 'multiselect' ? p.card : undefined; }, SLOW),
      live.tmux,
      live.agent.paneId,
      live.api,
    );
    expect(card.options.map((o) => [o.label, o.checked])).toEqual([
      ['Black', false],
      ['Sable', false],
      ['Other (type your own)', false],
    ]);
    const refused = await call(live.bridge, live.id, 'answer', { signature: card.signature, option: 1, request_id: 'omp-multi-option' });
    expect(refused.outcome).toBe('not sent: a multi-select question takes the boxes to toggle');
    const r = await call(live.bridge, live.id, 'answer', { signature: card.signature, toggle: [1, 2], request_id: 'omp-multi-toggle' });
    expect(r.outcome).toBe('answered');
    expect(await toolResult(before)).toBe('User selected: Black, Sable');
    await turnOver(3);
    await live.idle();
  });
});
