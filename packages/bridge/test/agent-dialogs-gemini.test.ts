import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentTool, COLOUR_QUESTION, SIZE_QUESTION, geminiInputReady, geminiMissing, geminiWorking } from '@collie/testkit';
import { answerCard, liveAgent, orExplain } from './agent-live';
import { geminiKind } from './live-rig';

/**
 * The real Gemini CLI 0.61's other dialogs through the real bridge: a file write ("Apply this
 * change?"), the ask_user tool's question, and two questions (their tabs, then the review tab),
 * each seen as blocked with a card and answered from it; what the model gets back says which
 * option was taken.
 */
const missing = geminiMissing();
if (missing) console.log(`skipped: ${missing}`);
const SLOW = 120_000;

describe.skipIf(missing !== null)('Gemini CLI dialogs answered from the card', () => {
  const live = liveAgent(geminiKind({ readyTimeoutMs: SLOW }), SLOW);
  const settled = live.idle;
  const idleScreen = (s: string) => geminiInputReady(s) && !geminiWorking(s);
  /** answerCard, and when it times out the screen and the model's last requests with it. */
  const answer = (want: Parameters<typeof answerCard>[2], option: number) => orExplain(answerCard(live.bridge, live.id, want, option, SLOW), live.tmux, live.agent.paneId, live.api);
  beforeAll(() => {
    expect(live.paneOf()?.harness).toBe('gemini');
  });

  it('write_file: blocked on "Apply this change?", Allow once from the card writes the file', { timeout: 300_000 }, async () => {
    const file = join(live.agent.cwd, 'NOTES.md');
    live.api.script(...agentTool('write_file', { file_path: file, content: 'Collie notes\nline two\n' }));
    await live.agent.submit('write the notes');
    const card = await answer((c) => c.question === 'Apply this change?', 1);
    expect(card).toMatchObject({ kind: 'permission', title: 'WriteFile' });
    expect(card.body[0]).toBe('Writing to NOTES.md');
    expect(card.options.map((o) => o.label)).toEqual(['Allow once', 'Allow for this session', 'Modify with external editor', 'No, suggest changes']);
    const back = await live.api.waitForRequest((r) => r.kind === 'main' && r.toolOutputs.some((o) => o.includes('NOTES.md')), SLOW);
    expect(back.toolOutputs.at(-1)).toMatch(/Successfully created/u);
    expect(existsSync(file)).toBe(true);
    await live.agent.waitForScreen((s) => s.includes('The tool said') && idleScreen(s), SLOW);
    await settled();
  });

  it('ask_user: blocked on the question, its second option from the card is the answer', { timeout: 300_000 }, async () => {
    live.api.script(...agentTool('ask_user', { questions: [{ ...COLOUR_QUESTION, type: 'choice' }] }));
    await live.agent.submit('ask me something');
    const card = await answer((c) => c.kind === 'select', 2);
    expect(card.question).toBe(COLOUR_QUESTION.question);
    expect(card.options.map((o) => [o.label, o.freeText])).toEqual([['Black', false], ['Sable', false], ['Enter a custom value', true]]);
    const back = await live.api.waitForRequest((r) => r.kind === 'main' && r.toolOutputs.some((o) => o.includes('answers')), SLOW);
    expect(back.toolOutputs.at(-1)).toContain('Sable');
    await live.agent.waitForScreen((s) => s.includes('The tool said') && idleScreen(s), SLOW);
    await settled();
  });

  it('ask_user with two questions: each tab, then the review tab, answered from the card', { timeout: 300_000 }, async () => {
    live.api.script(...agentTool('ask_user', { questions: [{ ...COLOUR_QUESTION, type: 'choice' }, { ...SIZE_QUESTION, type: 'choice' }] }));
    await live.agent.submit('ask me two things');
    const first = await answer((c) => c.kind === 'wizard' && c.question === COLOUR_QUESTION.question, 1);
    expect(first.tabs.map((t) => t.label)).toEqual(['Colour', 'Size', 'Review']);
    const second = await answer((c) => c.kind === 'wizard' && c.question === SIZE_QUESTION.question, 2);
    expect(second.tabs[0]).toEqual({ label: 'Colour', answered: true });
    const review = await answer((c) => c.kind === 'review', 1);
    expect(review).toMatchObject({ question: 'Review your answers', body: ['Colour → Black', 'Size → Large'], activeTab: 2 });
    expect(review.options.map((o) => o.label)).toEqual(['Submit', 'Cancel']);
    const back = await live.api.waitForRequest((r) => r.kind === 'main' && r.toolOutputs.some((o) => o.includes('answers') && o.includes('Large')), SLOW);
    expect(back.toolOutputs.at(-1)).toContain('Black');
    await live.agent.waitForScreen((s) => s.includes('The tool said') && idleScreen(s), SLOW);
    await settled();
  });
});
