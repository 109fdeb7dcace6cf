import { describe, expect, it } from 'vitest';
import { answerWords, askSubject, optionReach } from './answer-words';
import { DialogCard } from './pane';

const opt = (n: number, label: string) => ({ n, label, description: null, checked: null, freeText: false });
const makeCard = (overrides: Partial<DialogCard>): DialogCard =>
  DialogCard.parse({ kind: 'permission', signature: 'sig', title: 'Bash command', body: [], question: 'Do you want to proceed?', options: [], tabs: [], activeTab: null, answerable: true, ...overrides });

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

  it("names Codex's command, not its fields (Environment, Reason)", () => {
    const codex = makeCard({ title: 'Run command', body: ['Environment: local', 'Reason: Clean the build output', '$ rm -rf build'], options: [opt(1, 'Yes, proceed'), opt(2, 'No, and tell Codex what to do differently')] });
    expect(askSubject(codex)).toBe('rm -rf build');
    expect(answerWords(codex, codex.options[0]!)).toBe('Allowed once: rm -rf build');
    expect(askSubject(makeCard({ body: ['Environment: local', 'Reason: Tidy up'] }))).toBe('Environment: local');
  });
});
