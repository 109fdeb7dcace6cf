import { readFileSync } from 'node:fs';
import { DialogCard } from '@collie/protocol';
import { describe, expect, it } from 'vitest';
import { answerPlan, readCard } from '../card';

// Real screens of the current build (see captures/README.md).
const capture = (name: string): DialogCard => {
  const card = readCard('claude', readFileSync(new URL(`captures/${name}.txt`, import.meta.url), 'utf8'));
  if (!card) throw new Error(`no card on ${name}`);
  return DialogCard.parse(card);
};

describe('cards of Claude Code 2.1.334 screens', () => {
  it('folder trust without numbers: a trust card, choices in screen order, answered with Home / Down / Enter', () => {
    const card = capture('trust-unnumbered');
    expect(card).toMatchObject({ kind: 'trust', title: 'Accessing workspace:', question: 'Is this a project you created or one you trust?', answerable: true });
    expect(card.options.map((o) => o.label)).toEqual(['No, exit', 'Yes, I trust this folder']);
    expect(answerPlan('claude', card, { option: 2 })).toEqual({ ok: true, steps: ['Home', 'Down', 'Enter'] });
  });

  it('"Exit plan mode?" is plan approval without a plan', () => {
    const card = capture('exit-plan-mode');
    expect(card).toMatchObject({ kind: 'plan', title: 'Exit plan mode?', body: ['Claude wants to exit plan mode'], question: '' });
    expect(card.options.map((o) => o.label)).toEqual(['Yes, and switch to default (ask each time) for this session', 'No']);
  });

  it('a Bash permission: heading, description and command as body, the auto-mode tip left out', () => {
    const card = capture('permission-bash');
    expect(card).toMatchObject({ kind: 'permission', title: 'Bash command', body: ['Create a marker file', 'touch made-by-bash'], question: 'Do you want to proceed?' });
    expect(card.options.map((o) => o.label)).toEqual([
      'Yes',
      expect.stringMatching(/^Yes, and always allow access to \/tmp\/collie-claude-cwd-\w+ from this project$/u),
      'Yes, and switch to auto mode · auto mode handles these prompts for you',
      'No',
    ]);
    expect(card.options.some((o) => o.freeText)).toBe(false);
  });

  it('while the user amends (Tab), the pointed option is a text field and the card is not answerable', () => {
    const card = capture('permission-amend');
    expect(card.options[0]).toMatchObject({ label: 'Yes, and tell Claude what to do next', freeText: true });
    expect(card.answerable).toBe(false);
    expect(capture('permission-bash').signature).not.toBe(card.signature);
  });

  it('text typed into `Type something.` keeps the row a text option; pointer there or on Chat: not answerable', () => {
    const typing = capture('select-typing');
    expect(typing.options[2]).toMatchObject({ label: 'teal', freeText: true });
    expect(typing.answerable).toBe(false);
    const chat = capture('select-chat-focused');
    expect(chat.answerable).toBe(false);
    expect(chat.signature).toBe(typing.signature);
  });

  it('a lone multi-select: ticks read, toggles then Tab to the review page and 1 to submit', () => {
    const card = capture('multiselect-checked');
    expect(card).toMatchObject({ kind: 'multiselect', title: 'Toppings', question: 'Which toppings?', tabs: [{ label: 'Toppings', answered: true }, { label: 'Submit' }], activeTab: 0 });
    expect(card.options.map((o) => o.checked)).toEqual([false, true, false, true, false, null]);
    expect(card.options[0]?.description).toBe('About Cheese.');
    expect(answerPlan('claude', card, { toggle: [1, 3] })).toEqual({ ok: true, steps: ['1', '3', 'Tab', '1'] });
  });

  it('a wizard tab and its review page', () => {
    const q2 = capture('wizard-q2');
    expect(q2).toMatchObject({ kind: 'wizard', title: 'Crust', activeTab: 1, tabs: [{ label: 'Size', answered: true }, { label: 'Crust', answered: false }, { label: 'Submit' }] });
    const review = capture('wizard-review');
    expect(review).toMatchObject({ kind: 'review', title: 'Review your answers', question: '', body: ['● Which size?', '→ Small', '● Which crust?', '→ Thick'], activeTab: 2 });
    expect(answerPlan('claude', review, { option: 1 })).toEqual({ ok: true, steps: ['1'] });
  });

  it('a preview question: the mockup is not text of the card; a digit moves the pointer, Enter chooses', () => {
    const card = capture('preview');
    expect(card).toMatchObject({ kind: 'preview', title: 'Design', question: 'Which design?', body: [] });
    expect(card.options.map((o) => [o.label, o.description])).toEqual([
      ['Boxy', null],
      ['Round', null],
      ['Chat about this', null],
    ]);
    expect(answerPlan('claude', card, { option: 2 })).toEqual({ ok: true, steps: ['2', 'Enter'] });
  });
});
