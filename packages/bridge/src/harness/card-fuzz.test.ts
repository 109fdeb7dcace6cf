import { readFileSync } from 'node:fs';
import { CardOption, Dialog, DialogCard, Harness } from '@collie/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerPlan, readCard } from './card';

const FIXTURES = new URL('../../../testkit/corpus/panes/', import.meta.url);
const E = '\u001b';

/** Rows and glyphs the card readers key on, escapes whole and broken, line ends, any code point. */
const piece = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', '7', ' ', '─', '╌', '▔', '❯', '│', '├─┤', '╭─ Ask ─╮', '╰─╯', '☐', '☒', '✔', '○', '[', ']', '.', '?', '┌─┐', '→', '←') },
  { weight: 3, arbitrary: fc.constantFrom('\n', '\r\n', '\r') },
  { weight: 2, arbitrary: fc.constantFrom(`${E}[48;5;153m`, `${E}[0m`, `${E}[7m`, `${E}[2m`, `${E}[48;2;1`, E, '\t', '\ud800') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '─'.repeat(60),
      '╌'.repeat(60),
      '▔'.repeat(60),
      '❯ 1. Yes',
      '  2. [✔] Olives',
      '  3. Type something.',
      '  4. Chat about this',
      '  Chat about this',
      '     Submit',
      '❯    Next',
      ' Do you want to proceed?',
      '←  ☒ Size  ☐ Crust  ✔ Submit  →',
      ' ☐ Color ',
      'Review your answers',
      'Ready to submit your answers?',
      'Enter to select · ↑/↓ to navigate · Esc to cancel',
      'Esc to cancel · Tab to amend',
      'Esc to cancel',
      'Enter to confirm · Esc to cancel',
      ' Yes, I trust this folder',
      'Claude has written up a plan and is ready to execute. Would you like to proceed?',
      '   Here is Claude\'s plan:',
      '   Exit plan mode?',
      '        shift+tab to approve with this feedback',
      '  1. Boxy      ┌──────┐',
      '               Notes: n',
      'ctrl+g to edit in Vim',
      '│ ❯ ○ Red │',
      '│  toppings    Submit │',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
);
const screenArb = fc.array(piece, { maxLength: 200 }).map((parts) => parts.join(''));
const fixture = fc.constantFrom(...['claude--select-menu', 'claude--wizard-submit', 'claude--plan-approval', 'claude--select-multiselect-checked', 'omp--select-multi'].map((n) => readFileSync(new URL(`${n}.txt`, FIXTURES), 'utf8')));

describe('readCard is total', () => {
  it('never throws and gives null or a valid card, the same twice', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Harness.options), screenArb, (harness, screen) => {
        const card = readCard(harness, screen);
        if (card !== null) expect(DialogCard.parse(card)).toEqual(card);
        expect(readCard(harness, screen)).toEqual(card);
      }),
      { numRuns: 600 },
    );
  });

  it('reads the same with LF and CRLF line ends', () => {
    fc.assert(
      fc.property(fc.constantFrom<Harness>('claude', 'omp'), screenArb.map((s) => s.replace(/\r/g, '')), (harness, screen) => {
        expect(readCard(harness, screen.replace(/\n/g, '\r\n'))).toEqual(readCard(harness, screen));
      }),
      { numRuns: 400 },
    );
  });

  it('copes with real dialogs cut, spliced and salted with noise', () => {
    fc.assert(
      fc.property(fixture, fc.nat(), fc.nat(), screenArb, (screen, a, b, noise) => {
        const cut = screen.slice(Math.min(a, b) % screen.length, Math.max(a, b) % (screen.length + 1));
        for (const text of [cut, cut + noise, noise + cut]) {
          const card = readCard('claude', text);
          if (card !== null) expect(DialogCard.parse(card)).toEqual(card);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('answerPlan is total', () => {
  const option = fc.record({ n: fc.integer({ min: 1, max: 30 }), label: fc.string(), description: fc.option(fc.string()), checked: fc.option(fc.boolean()), freeText: fc.boolean() });
  const card = fc.record({
    kind: fc.constantFrom(...Dialog.options),
    signature: fc.string(),
    title: fc.string(),
    body: fc.array(fc.string()),
    question: fc.string(),
    options: fc.array(option, { maxLength: 12 }),
    tabs: fc.array(fc.record({ label: fc.string(), answered: fc.boolean() })),
    activeTab: fc.option(fc.integer()),
    answerable: fc.boolean(),
  });
  const n = fc.integer({ min: -3, max: 40 });

  it('never throws; a plan presses only tmux key names, at least one', () => {
    fc.assert(
      fc.property(card, fc.record({ option: fc.option(n, { nil: undefined }), toggle: fc.option(fc.array(n, { maxLength: 25 }), { nil: undefined }) }), (c, answer) => {
        expect(CardOption.array().safeParse(c.options).success).toBe(true);
        const plan = answerPlan('claude', c, answer);
        if (plan.ok) {
          expect(plan.steps.length).toBeGreaterThan(0);
          for (const key of plan.steps) expect(key).toMatch(/^(?:[1-9]|Tab|Enter|Home|Down)$/);
        } else expect(plan.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: 1000 },
    );
  });
});
