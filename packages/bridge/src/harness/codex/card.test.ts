import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { answerPlan, readCard } from '../card';

const CAPTURES = new URL('./captures/', import.meta.url);
const screen = (name: string) => readFileSync(new URL(`${name}.txt`, CAPTURES), 'utf8');

describe('Codex cards', () => {
  it('the command approval: the command, its reason, three options without shortcut hints; digits answer', () => {
    const card = readCard('codex', screen('codex--approval'))!;
    expect(card).toMatchObject({ kind: 'permission', title: 'Run command', question: 'Would you like to run the following command?', answerable: true });
    expect(card.body).toEqual(['Environment: local', 'Reason: Clean the build output', '$ rm -rf build']);
    expect(card.options.map((o) => o.label)).toEqual([
      'Yes, proceed',
      "Yes, and don't ask again for commands that start with `rm -rf build`",
      'No, and tell Codex what to do differently',
    ]);
    expect(answerPlan('codex', card, { option: 1 })).toEqual({ ok: true, steps: ['1'] });
    expect(answerPlan('codex', card, { option: 3 })).toEqual({ ok: true, steps: ['3'] });
    expect(answerPlan('codex', card, { toggle: [1] }).ok).toBe(false);
  });

  it('moving the pointer keeps the signature', () => {
    expect(readCard('codex', screen('codex--approval-second'))?.signature).toBe(readCard('codex', screen('codex--approval'))?.signature);
  });

  it('folder trust: a digit moves the pointer, Enter chooses', () => {
    const card = readCard('codex', screen('codex--trust'))!;
    expect(card).toMatchObject({ kind: 'trust', title: 'Folder access', question: 'Trust this folder?' });
    expect(card.options.map((o) => o.label)).toEqual(['Trust and continue', 'Back to Agent Command Center']);
    expect(answerPlan('codex', card, { option: 1 })).toEqual({ ok: true, steps: ['1', 'Enter'] });
  });

  it('the question tool: its question, options split from their descriptions; a digit answers', () => {
    const card = readCard('codex', screen('codex--question'))!;
    expect(card).toMatchObject({ kind: 'select', title: 'Question 1/1', question: 'Which colour should the collie be?', answerable: true });
    expect(card.options.map((o) => [o.label, o.description])).toEqual([
      ['Black (Recommended)', 'The classic coat'],
      ['Sable', 'Golden brown'],
      ['None of the above', 'Optionally, add details in notes (tab)'],
    ]);
    expect(answerPlan('codex', card, { option: 2 })).toEqual({ ok: true, steps: ['2'] });
    expect(readCard('codex', screen('codex--questions'))).toMatchObject({ kind: 'wizard', title: 'Question 1/2' });
  });
});

