import { readFileSync } from 'node:fs';
import { DialogCard, Dialog, Harness } from '@collie/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readCard } from './card';
import { readScreen } from './read-screen';

// The golden corpus of real screens: packages/testkit/corpus/panes (its README says how each was captured).
const FIXTURES = new URL('../../../testkit/corpus/panes/', import.meta.url);
const Label = z.object({ harness: Harness, dialog: Dialog.nullable() });
const labels = z.record(z.string(), Label).parse(JSON.parse(readFileSync(new URL('labels.json', FIXTURES), 'utf8')));
const screen = (name: string): string => readFileSync(new URL(`${name}.txt`, FIXTURES), 'utf8');
const card = (name: string): DialogCard => {
  const c = readCard(labels[name]?.harness ?? 'shell', screen(name));
  if (!c) throw new Error(`no card on ${name}`);
  return c;
};
const labelsOf = (name: string) => card(name).options.map((o) => o.label);

describe.each(Object.entries(labels))('card of %s', (name, label) => {
  const c = readCard(label.harness, screen(name));

  if (label.dialog === null) {
    it('is null: no dialog on screen', () => {
      expect(c).toBeNull();
    });
    return;
  }

  it(`is a valid ${label.dialog} card, of the kind the screen reader sees`, () => {
    expect(c).not.toBeNull();
    expect(DialogCard.parse(c)).toEqual(c);
    expect(c?.kind).toBe(label.dialog);
    expect(c?.kind).toBe(readScreen(label.harness, screen(name)).dialog);
  });

  if (label.dialog === 'menu') {
    it('is shown, never answered', () => {
      expect(c?.answerable).toBe(false);
    });
  } else {
    it('has options numbered 1, 2, 3 … as on screen', () => {
      expect(c?.options.length).toBeGreaterThan(0);
      expect(c?.options.map((o) => o.n)).toEqual(c?.options.map((_, i) => i + 1));
    });
  }

  if (label.dialog === 'wizard' || label.dialog === 'review') {
    it('has the tabs across the top, Submit last, and which one is open', () => {
      expect(c?.tabs.length).toBeGreaterThan(1);
      expect(c?.tabs.at(-1)?.label).toBe('Submit');
      expect(c?.activeTab).not.toBeNull();
    });
  }
});

describe('what a card says, read off real screens', () => {
  it('a file permission: its heading, the file, the question, the scoped "don\'t ask again" option', () => {
    const c = card('claude--permission-edit');
    expect(c).toMatchObject({ title: 'Create file', body: ['hello.txt', '1 hello'], question: 'Do you want to create hello.txt?', answerable: true });
    expect(labelsOf('claude--permission-edit')).toEqual(['Yes', 'Yes, allow all edits during this session', 'No']);
  });

  it('a single question: header chip, question, labels with the descriptions under them, the text options', () => {
    const c = card('claude--select-menu');
    expect(c).toMatchObject({ title: 'Color Theme', question: 'Which color theme should the dashboard use?', tabs: [], activeTab: null });
    expect(c.options[1]).toEqual({ n: 2, label: 'Green', description: 'A calm, natural theme with green as the primary accent color.', checked: null, freeText: false });
    expect(c.options.filter((o) => o.freeText).map((o) => o.label)).toEqual(['Type something.', 'Chat about this']);
  });

  it('a multi-select: boxes ticked as drawn, the Submit row not taken for text', () => {
    const c = card('claude--select-multiselect-checked');
    expect(c.options.map((o) => [o.label, o.checked])).toEqual([
      ['Cheese', false],
      ['Mushrooms', true],
      ['Olives', true],
      ['Peppers', false],
      ['Type something', false],
      ['Chat about this', null],
    ]);
    expect(c.options[0]?.description).toBe('Classic melted cheese topping.');
    expect(c.options[4]?.description).toBeNull();
  });

  it('a wizard: tabs with their answered marks, the open tab is the title', () => {
    const c = card('claude--select-multi');
    expect(c.tabs).toEqual([
      { label: 'Focus area', answered: true },
      { label: 'Scope', answered: false },
      { label: 'Workflow', answered: false },
      { label: 'Submit', answered: false },
    ]);
    expect(c).toMatchObject({ activeTab: 2, title: 'Workflow', question: 'How should I approach the work?' });
    expect(labelsOf('claude--select-multi')).toEqual(['Plan first', 'Just build it', 'Build + verify', 'Type something.', 'Chat about this']);
  });

  it('a revisited wizard tab: the ✔ of the earlier answer is not part of the label', () => {
    expect(labelsOf('claude--wizard-q1-revisit')).toEqual(['Parser', 'UI', 'Tests', 'Type something.', 'Chat about this']);
  });

  it('the review tab: heading, the answers given, and the choice that submits', () => {
    const c = card('claude--wizard-submit');
    expect(c).toMatchObject({ title: 'Review your answers', question: 'Ready to submit your answers?', activeTab: 3 });
    expect(c.body).toEqual(['● Which focus area should we work on?', '→ UI', '● What scope should this work have?', '→ Medium', '● How should we approach the work?', '→ Plan first']);
    expect(labelsOf('claude--wizard-submit')).toEqual(['Submit answers', 'Cancel']);
  });

  it('preview questions: labels cut before the mockup, wrapped labels joined, the unnumbered Chat row kept', () => {
    expect(labelsOf('claude--select-preview-note-attached')).toEqual(['Boxy', 'Rounded', 'Minimal', 'Chat about this']);
    expect(labelsOf('claude--wizard-preview-wrapped-label')).toEqual(['Grid of equal-width cards with a fixed gutter (Recommended)', 'List', 'Chat about this']);
  });

  it('plan approval: the plan as body, the proceed question, the feedback row as text (typed or not)', () => {
    const c = card('claude--plan-approval');
    expect(c).toMatchObject({ title: 'Ready to code?', question: 'Claude has written up a plan and is ready to execute. Would you like to proceed?' });
    expect(c.body.slice(0, 2)).toEqual(['Plan: Add haiku.txt with a dog haiku', 'Context']);
    expect(c.body.length).toBeLessThanOrEqual(12);
    expect(c.options.map((o) => [o.label, o.freeText])).toEqual([
      ['Yes, and use auto mode', false],
      ['Yes, manually approve edits', false],
      ['No, refine with Ultraplan on Claude Code on the web', false],
      ['Tell Claude what to change', true],
    ]);
    expect(card('claude--plan-approval--feedback-typed').options.at(-1)).toMatchObject({ label: 'use a guard clause instead', freeText: true });
  });

  it('a numbered plan body is not taken for the options', () => {
    expect(labelsOf('claude--plan-approval--numbered-body')).toEqual([
      'Yes, and use auto mode',
      'Yes, manually approve edits',
      'No, refine with Ultraplan on Claude Code on the web',
      'Tell Claude what to change',
    ]);
  });

  it('folder trust: the question picked out of its paragraph', () => {
    const c = card('claude--trust-prompt');
    expect(c).toMatchObject({ title: 'Accessing workspace:', question: 'Is this a project you created or one you trust?', answerable: true });
    expect(labelsOf('claude--trust-prompt')).toEqual(['Yes, I trust this folder', 'No, exit']);
  });

  it('the /model picker: labels and descriptions split, the current-pick mark dropped, never answerable', () => {
    const c = card('claude--menu-model-picker');
    expect(c).toMatchObject({ title: 'Select model', answerable: false });
    expect(c.options[0]).toMatchObject({ label: 'Default (recommended)', description: 'Opus 5 with 1M context · Best for everyday, complex tasks' });
  });

  it("oh-my-pi's ask: question, options, the typed-answer option; answered from the card", () => {
    const c = card('omp--select-menu');
    expect(c).toMatchObject({ title: 'Ask', question: 'Pick a color', answerable: true });
    expect(c.options.map((o) => [o.label, o.freeText])).toEqual([
      ['Red', false],
      ['Green', false],
      ['Blue', false],
      ['Other (type your own)', true],
    ]);
    expect(card('omp--select-multi')).toMatchObject({ tabs: [{ label: 'toppings' }, { label: 'Submit' }], activeTab: 0 });
    expect(card('omp--select-multi-review')).toMatchObject({ question: 'Review answers', body: ['1. toppings: Cheese, Olives'], activeTab: 1 });
  });
});

describe('signature', () => {
  const sig = (name: string) => card(name).signature;

  it.each([
    ['claude--menu-model-picker', 'claude--menu-model-picker-moved', 'only the pointer moved'],
    ['claude--wizard-multiselect-checked', 'claude--wizard-multiselect-pointer-next', 'the pointer moved to Next (and a key hint changed)'],
    ['claude--select-multiselect-single', 'claude--select-multiselect-checked', 'boxes ticked, the tab marked answered'],
    ['claude--wizard-multiselect-q1', 'claude--wizard-multiselect-checked', 'boxes ticked in a wizard'],
    ['claude--wizard-q1', 'claude--wizard-q1-revisit', 'the earlier answer marked ✔'],
    ['claude--wizard-preview-q1', 'claude--wizard-preview-note-attached', 'a note typed for the preview'],
    ['claude--select-preview-note-attached', 'claude--select-preview-note-input', 'the notes field opened'],
    ['omp--select-menu', 'omp--select-menu-moved', 'only the pointer moved'],
  ])('%s = %s: %s', (a, b) => {
    expect(sig(a)).toBe(sig(b));
  });

  it('differs between different dialogs', () => {
    // One screen of each ask above that repeats another; menus are never answered.
    const repeats = new Set(['claude--wizard-multiselect-pointer-next', 'claude--select-multiselect-single', 'claude--wizard-multiselect-q1', 'claude--wizard-q1', 'claude--wizard-preview-q1', 'claude--select-preview-note-input', 'omp--select-menu-moved']);
    const asks = Object.entries(labels)
      .filter(([name, l]) => l.dialog !== null && l.dialog !== 'menu' && !repeats.has(name))
      .map(([name]) => name);
    expect(asks.length).toBeGreaterThan(20);
    const sigs = asks.map(sig);
    expect(new Set(sigs).size).toBe(sigs.length);
  });

  it('differs when the open tab, an option or the plan differs', () => {
    expect(sig('claude--wizard-q1')).not.toBe(sig('claude--wizard-submit'));
    expect(sig('claude--plan-approval--three-row-focused')).not.toBe(sig('claude--plan-approval--three-row-typed-focused'));
    expect(sig('claude--wizard-submit')).not.toBe(sig('claude--wizard-submit-unanswered'));
  });
});
