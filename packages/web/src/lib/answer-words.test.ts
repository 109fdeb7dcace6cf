import { describe, expect, it } from 'vitest';
import { makeCard } from '../../test/fixtures';
import { answerWords, optionReach } from './answer-words';

const opt = (n: number, label: string) => ({ n, label, description: null, checked: null, freeText: false });

describe('optionReach and answerWords', () => {
  const card = makeCard({
    body: ['Clean the build', 'rm -rf ./build'],
    options: [opt(1, 'Yes'), opt(2, "Yes, and don't ask again for rm commands in this folder"), opt(3, 'No')],
  });

  it('makes the first, narrowest yes primary, the wider ones wider, and No plain', () => {
    expect(card.options.map((o) => optionReach(card, o))).toEqual(['primary', 'wider', 'plain']);
    const edits = makeCard({ options: [opt(1, 'Yes'), opt(2, 'Yes, allow all edits during this session'), opt(3, 'No')] });
    expect(edits.options.map((o) => optionReach(edits, o))).toEqual(['primary', 'wider', 'plain']);
    const plan = makeCard({ kind: 'plan', options: [opt(1, 'Yes, and auto-accept edits'), opt(2, 'Yes, and manually approve edits'), opt(3, 'No, keep planning')] });
    expect(plan.options.map((o) => optionReach(plan, o))).toEqual(['wider', 'primary', 'plain']);
  });

  it('says what was chosen in words', () => {
    expect(answerWords(card, card.options[0]!)).toBe('Allowed once: rm -rf ./build');
    expect(answerWords(card, card.options[1]!)).toBe("Allowed, and don't ask again for rm commands in this folder: rm -rf ./build");
    expect(answerWords(card, card.options[2]!)).toBe('Refused: rm -rf ./build');
    const choice = makeCard({ kind: 'select', options: [opt(1, 'Postgres'), opt(2, 'SQLite')] });
    expect(answerWords(choice, choice.options[1]!)).toBe('Answered “SQLite”');
  });
});
