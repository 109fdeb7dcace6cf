import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { answerPlan, readCard } from '../card';

const CAPTURES = new URL('./captures/', import.meta.url);
const screen = (name: string) => readFileSync(new URL(`${name}.txt`, CAPTURES), 'utf8');

describe('Gemini CLI cards', () => {
  it('the shell approval: the tool, its command, three options; a digit answers', () => {
    const card = readCard('gemini', screen('gemini--approval'))!;
    expect(card).toMatchObject({ kind: 'permission', title: 'Shell', body: ['rm -rf build'], question: 'Allow execution of [Shell]?', answerable: true });
    expect(card.options.map((o) => o.label)).toEqual(['Allow once', 'Allow for this session', 'No, suggest changes']);
    expect(answerPlan('gemini', card, { option: 1 })).toEqual({ ok: true, steps: ['1'] });
    expect(readCard('gemini', screen('gemini--approval-second'))?.signature).toBe(card.signature);
  });

  it('folder trust: the question and its three choices', () => {
    const card = readCard('gemini', screen('gemini--trust'))!;
    expect(card).toMatchObject({ kind: 'trust', question: 'Do you trust the files in this folder?' });
    expect(card.options.map((o) => o.label.replace(/\(.*\)/u, '').trim())).toEqual(['Trust folder', 'Trust parent folder', "Don't trust"]);
  });

  it('write_file: what it writes as the body, four options; a digit answers', () => {
    const card = readCard('gemini', screen('gemini--write-file'))!;
    expect(card).toMatchObject({ kind: 'permission', title: 'WriteFile', question: 'Apply this change?', answerable: true });
    expect(card.body).toEqual(['Writing to NOTES.md', '1 Collie notes', '2 line two']);
    expect(answerPlan('gemini', card, { option: 4 })).toEqual({ ok: true, steps: ['4'] });
  });

  it('ask_user: the question, options with their descriptions; a custom value asks for words', () => {
    const card = readCard('gemini', screen('gemini--ask-user'))!;
    expect(card).toMatchObject({ kind: 'select', question: 'Which colour should the collie be?', tabs: [], answerable: true });
    expect(card.options.map((o) => [o.label, o.description, o.freeText])).toEqual([
      ['Black', 'The classic coat', false],
      ['Sable', 'Golden brown', false],
      ['Enter a custom value', null, true],
    ]);
    expect(answerPlan('gemini', card, { option: 2 })).toEqual({ ok: true, steps: ['2'] });
    expect(answerPlan('gemini', card, { option: 3 }).ok).toBe(false);
  });

  it('ask_user with two questions: a wizard with the questions and the review as tabs', () => {
    const card = readCard('gemini', screen('gemini--ask-user-two'))!;
    expect(card).toMatchObject({ kind: 'wizard', question: 'Which colour should the collie be?' });
    expect(card.tabs).toEqual([
      { label: 'Colour', answered: false },
      { label: 'Size', answered: false },
      { label: 'Review', answered: false },
    ]);
  });

  it('the second tab after the first answer: the size question, the colour tab ticked', () => {
    const card = readCard('gemini', screen('gemini--ask-user-two-second'))!;
    expect(card).toMatchObject({ kind: 'wizard', question: 'How big should it be?' });
    expect(card.options.map((o) => o.label)).toEqual(['Small', 'Large', 'Enter a custom value']);
    expect(card.tabs[0]).toEqual({ label: 'Colour', answered: true });
    expect(answerPlan('gemini', card, { option: 2 })).toEqual({ ok: true, steps: ['2'] });
  });

  it('the review tab: the answers as the body, the review as the open tab; Submit is Enter, Cancel is Esc', () => {
    const card = readCard('gemini', screen('gemini--ask-user-review'))!;
    expect(card).toMatchObject({ kind: 'review', title: 'Question', question: 'Review your answers', body: ['Colour → Black', 'Size → Large'], activeTab: 2, answerable: true });
    expect(card.tabs).toEqual([
      { label: 'Colour', answered: true },
      { label: 'Size', answered: true },
      { label: 'Review', answered: false },
    ]);
    expect(card.options.map((o) => o.label)).toEqual(['Submit', 'Cancel']);
    expect(answerPlan('gemini', card, { option: 1 })).toEqual({ ok: true, steps: ['Enter'] });
    expect(answerPlan('gemini', card, { option: 2 })).toEqual({ ok: true, steps: ['Escape'] });
    expect(answerPlan('gemini', card, { option: 3 }).ok).toBe(false);
  });

  it('the review tab before any answer: the warning and both questions unanswered', () => {
    const card = readCard('gemini', screen('gemini--ask-user-review-unanswered'))!;
    expect(card.kind).toBe('review');
    expect(card.body).toEqual(['⚠ You have 2 unanswered questions', 'Colour → (not answered)', 'Size → (not answered)']);
    expect(card.tabs.map((t) => t.answered)).toEqual([false, false, false]);
    // Another review (other answers) is another ask.
    expect(card.signature).not.toBe(readCard('gemini', screen('gemini--ask-user-review'))!.signature);
  });
});
