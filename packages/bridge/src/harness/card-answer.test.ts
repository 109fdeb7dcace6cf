import { readFileSync } from 'node:fs';
import type { DialogCard } from '@collie/protocol';
import { describe, expect, it } from 'vitest';
import { answerPlan, readCard } from './card';

const FIXTURES = new URL('../../../testkit/corpus/panes/', import.meta.url);
const card = (name: string): DialogCard => {
  const c = readCard(name.startsWith('omp') ? 'omp' : 'claude', readFileSync(new URL(`${name}.txt`, FIXTURES), 'utf8'));
  if (!c) throw new Error(`no card on ${name}`);
  return c;
};
const steps = (name: string, answer: { option?: number; toggle?: number[] }) => answerPlan('claude', card(name), answer);
const refusal = (name: string, answer: { option?: number; toggle?: number[] }) => {
  const plan = steps(name, answer);
  return plan.ok ? `pressed ${plan.steps.join(' ')}` : plan.reason;
};

describe('answerPlan: the keys each dialog takes (measured on Claude Code 2.1.334)', () => {
  it.each([
    ['claude--permission-edit', { option: 1 }, ['1']],
    ['claude--permission-edit', { option: 2 }, ['2']],
    ['claude--select-menu', { option: 2 }, ['2']],
    ['claude--wizard-q1', { option: 3 }, ['3']],
    ['claude--wizard-submit', { option: 1 }, ['1']],
    ['claude--plan-approval', { option: 2 }, ['2']],
    ['claude--select-multiselect-single', { toggle: [1, 3] }, ['1', '3', 'Tab', '1']],
    ['claude--select-multiselect-checked', { toggle: [] }, ['Tab', '1']],
    ['claude--wizard-multiselect-q1', { toggle: [2, 4] }, ['2', '4', 'Tab']],
    ['claude--select-preview-note-attached', { option: 3 }, ['3', 'Enter']],
    ['claude--wizard-preview-q1', { option: 1 }, ['1', 'Enter']],
    ['claude--trust-prompt', { option: 1 }, ['Home', 'Enter']],
    ['claude--trust-prompt', { option: 2 }, ['Home', 'Down', 'Enter']],
  ])('%s %j → %j', (name, answer, keys) => {
    expect(steps(name, answer)).toEqual({ ok: true, steps: keys });
  });
});

describe('answerPlan refuses what cannot be answered safely, in words', () => {
  it('a menu the user opened', () => {
    expect(refusal('claude--menu-model-picker', { option: 1 })).toMatch(/menu the user opened/);
  });

  it('an option that asks for typed text', () => {
    expect(refusal('claude--select-menu', { option: 4 })).toBe('option 4 ("Type something.") asks for typed text');
    expect(refusal('claude--select-menu', { option: 5 })).toMatch(/Chat about this.*typed text/);
    expect(refusal('claude--plan-approval', { option: 4 })).toMatch(/Tell Claude what to change/);
    expect(refusal('claude--select-multiselect-single', { toggle: [1, 5] })).toMatch(/option 5 .*typed text/);
  });

  it('an option not on the card', () => {
    expect(refusal('claude--permission-edit', { option: 4 })).toBe('option 4 is not on this card');
    expect(refusal('claude--select-multiselect-single', { toggle: [9] })).toBe('option 9 is not on this card');
  });

  it('ticks for a one-answer question, one option for a multi-select, both or neither, a box twice', () => {
    expect(refusal('claude--select-menu', { toggle: [1] })).toMatch(/one option, not ticks/);
    expect(refusal('claude--select-multiselect-single', { option: 1 })).toMatch(/takes ticks/);
    expect(refusal('claude--select-menu', {})).toMatch(/either one option or the boxes/);
    expect(refusal('claude--select-menu', { option: 1, toggle: [1] })).toMatch(/either one option or the boxes/);
    expect(refusal('claude--select-multiselect-single', { toggle: [2, 2] })).toBe('option 2 is listed twice');
  });

  it('a dialog whose pointer is in a text field', () => {
    expect(refusal('claude--plan-approval--feedback-focused', { option: 1 })).toMatch(/cannot take keys now/);
  });

  it("oh-my-pi's ask, whose options carry no digits: the pointer to the top, down to the choice, Enter; Space on each box", () => {
    expect(answerPlan('omp', card('omp--select-menu'), { option: 2 })).toEqual({ ok: true, steps: ['Up', 'Up', 'Up', 'Down', 'Enter'] });
    expect(answerPlan('omp', card('omp--select-menu'), { option: 4 })).toMatchObject({ ok: false, reason: expect.stringMatching(/typed text/) });
    expect(answerPlan('omp', card('omp--select-menu'), { toggle: [1] })).toEqual({ ok: false, reason: 'this dialog takes one option, not ticks' });
  });

  it('an option past 9, which has no digit key', () => {
    const base = card('claude--select-menu');
    const many: DialogCard = {
      ...base,
      options: Array.from({ length: 10 }, (_, i) => ({ n: i + 1, label: `Choice ${i + 1}`, description: null, checked: null, freeText: false })),
    };
    expect(answerPlan('claude', many, { option: 9 })).toEqual({ ok: true, steps: ['9'] });
    expect(answerPlan('claude', many, { option: 10 })).toEqual({ ok: false, reason: 'option 10 has no digit key' });
  });
});

describe('where the pointer sits decides whether a tap can be answered now', () => {
  it.each([
    ['claude--plan-approval--feedback-focused', 'the plan feedback field has the keyboard'],
    ['claude--plan-approval--three-row-typed-focused', 'typed feedback, pointer on it'],
    ['claude--wizard-multiselect-pointer-next', 'the pointer is on the Next row, where digits do nothing'],
    ['claude--select-preview-note-input', 'the notes field of a preview question has the keyboard'],
  ])('%s is not answerable: %s', (name) => {
    expect(card(name).answerable).toBe(false);
  });

  it('the same dialogs with the pointer on a choice are', () => {
    expect(card('claude--plan-approval--feedback-typed').answerable).toBe(true);
    expect(card('claude--wizard-multiselect-checked').answerable).toBe(true);
    expect(card('claude--select-preview-note-attached').answerable).toBe(true);
  });
});
