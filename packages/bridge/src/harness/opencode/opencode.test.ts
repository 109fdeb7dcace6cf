import { Dialog, ScreenReading } from '@collie/protocol';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { answerPlan, readCard } from '../card';
import { detectHarnessFromScreen, readScreen } from '../read-screen';

const E = '\u001b';
/** OpenCode's prompt box and the status row under it. */
const screen = (status: string, text = '', ...above: string[]): string =>
  [...above, '  ┃', `  ┃  ${text}`, '  ┃', '  ┃  Build · Fake Coder Fake', '  ╹' + '▀'.repeat(60), status].join('\n');
const GAP = `${E}[48;2;30;30;30m`;
const FOCUS = `${E}[48;2;245;167;66m`;
/** A permission page's buttons, the `focus`-th drawn on the focus colour. */
const buttons = (labels: string[], focus: number) =>
  `  ┃${GAP}  ${labels.map((l, i) => `${i === focus ? FOCUS : GAP} ${l} ${GAP}`).join(' ')}    ctrl+f fullscreen  ⇆ select  enter confirm`;
const permission = (focus: number) =>
  ['  ┃', '  ┃  △ Permission required', '  ┃    # Shell command', '  ┃', '  ┃  $ rm -rf build', '  ┃', buttons(['Allow once', 'Allow always', 'Reject'], focus), '  ┃'].join('\n');

describe('OpenCode screens', () => {
  it('is idle when the status row shows its key hints, with no draft in an empty box', () => {
    const text = screen('   /srv/app                                     8.1K (6%)  ctrl+p commands');
    expect(readScreen('opencode', text)).toEqual({ harness: 'opencode', state: 'idle', dialog: null, draft: null });
    expect(detectHarnessFromScreen(text)).toBe('opencode');
  });

  it('reads the draft, and not the start screen placeholder', () => {
    expect(readScreen('opencode', screen('  tab agents  ctrl+p commands', 'fix the tests')).draft).toBe('fix the tests');
    expect(readScreen('opencode', screen('  tab agents  ctrl+p commands', 'Ask anything… "Fix broken tests"')).draft).toBeNull();
  });

  it('is working while the status row offers esc interrupt, also with a draft', () => {
    expect(readScreen('opencode', screen('  ⬝⬝■■  esc interrupt              ctrl+p commands')).state).toBe('working');
    expect(readScreen('opencode', screen('  ⬝■■⬝  esc again to interrupt     ctrl+p commands', 'later'))).toMatchObject({ state: 'working', draft: 'later' });
  });

  it('does not take "esc interrupt" in the transcript for a running turn', () => {
    expect(readScreen('opencode', screen('  ctrl+p commands', '', '  the user wrote: esc interrupt')).state).toBe('idle');
  });

  it('is blocked on a permission request, its card starting from the focused button', () => {
    const text = permission(1);
    expect(readScreen('opencode', text)).toEqual({ harness: 'opencode', state: 'blocked', dialog: 'permission', draft: null });
    const card = readCard('opencode', text);
    expect(card).toMatchObject({ kind: 'permission', title: 'Shell command', body: ['$ rm -rf build'], question: 'Permission required', answerable: true });
    expect(card?.options.map((o) => [o.label, o.focused])).toEqual([['Allow once', false], ['Allow always', true], ['Reject', false]]);
    if (!card) return;
    expect(answerPlan('opencode', card, { option: 1 })).toEqual({ ok: true, steps: ['Left', 'Enter'] });
    expect(answerPlan('opencode', card, { option: 2 })).toEqual({ ok: true, steps: ['Enter'] });
    expect(answerPlan('opencode', card, { option: 3 })).toEqual({ ok: true, steps: ['Escape'] });
    expect(answerPlan('opencode', card, { toggle: [1] }).ok).toBe(false);
    // Moving the focus does not change what was asked.
    expect(readCard('opencode', permission(0))?.signature).toBe(card.signature);
  });

  it('refuses a permission plan when no focused button can be read', () => {
    const card = readCard('opencode', permission(0).replaceAll(FOCUS, GAP));
    expect(card?.options.every((o) => o.focused === undefined)).toBe(true);
    if (card) expect(answerPlan('opencode', card, { option: 1 })).toEqual({ ok: false, reason: 'the focused button could not be read from the screen' });
  });

  it('reads the question tool as a select answered by digits', () => {
    const text = ['  ┃', '  ┃  Which color?', '  ┃', '  ┃  1. Red', '  ┃     Pick red', '  ┃  2. Green', '  ┃     Pick green', '  ┃  3. Type your own answer', '  ┃', '  ┃  ↑↓ select  enter submit  esc dismiss', '  ┃'].join('\n');
    expect(readScreen('opencode', text)).toMatchObject({ state: 'blocked', dialog: 'select' });
    const card = readCard('opencode', text);
    expect(card?.options.map((o) => [o.label, o.description, o.freeText])).toEqual([['Red', 'Pick red', false], ['Green', 'Pick green', false], ['Type your own answer', null, true]]);
    expect(card?.question).toBe('Which color?');
    if (card) expect(answerPlan('opencode', card, { option: 2 })).toEqual({ ok: true, steps: ['2'] });
  });

  it('is unknown without any of its signs', () => {
    expect(readScreen('opencode', 'plain text').state).toBe('unknown');
  });
});

describe('OpenCode reader on any screen', () => {
  const piece = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom('a', ' ', '┃', '╹', '▀'.repeat(30), '△', '#', '$', '1.', '2.', '⇆', '…', '"', '·') },
    { weight: 3, arbitrary: fc.constantFrom('\n', '\r\n', '  ┃  ', '\n  ┃') },
    { weight: 2, arbitrary: fc.constantFrom(GAP, FOCUS, `${E}[0m`, `${E}[48;2;1`, `${E}[38;5;2m`, E, '\t', '\ud800') },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '△ Permission required', '△ Always allow', '△ Reject permission', '# Shell command', ' Allow once ', ' Allow always ', ' Reject ',
        ' Confirm ', ' Cancel ', '⇆ select  enter confirm', '↑↓ select  enter submit  esc dismiss', '1. Red', '3. Type your own answer',
        'esc interrupt', 'ctrl+p commands', 'tab agents', 'Build · Fake Coder Fake', 'Ask anything… "Fix broken tests"',
      ),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  );
  const screens = fc.array(piece, { maxLength: 200 }).map((p) => p.join(''));

  it('always gives a valid reading, blocked exactly when a dialog is open, and plans that never throw', () => {
    fc.assert(
      fc.property(screens, (text) => {
        const reading = readScreen('opencode', text);
        expect(ScreenReading.parse(reading)).toEqual(reading);
        expect(reading.state === 'blocked').toBe(reading.dialog !== null);
        if (reading.dialog !== null) expect(Dialog.options).toContain(reading.dialog);
        const card = readCard('opencode', text);
        for (const option of card?.options ?? []) {
          const plan = answerPlan('opencode', card!, { option: option.n });
          if (plan.ok) for (const key of plan.steps) expect(['Left', 'Right', 'Enter', 'Escape', '1', '2', '3', '4', '5', '6', '7', '8', '9']).toContain(key);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('OpenCode questions on real screens', () => {
  const captured = (name: string) => readFileSync(new URL(`./captures/opencode--${name}.txt`, import.meta.url), 'utf8');

  it('several questions: tabs with the open one, its options; a digit answers and opens the next', () => {
    const first = readCard('opencode', captured('questions'))!;
    expect(first).toMatchObject({ kind: 'wizard', question: 'Which colour should the collie be?', activeTab: 0 });
    expect(first.tabs.map((t) => t.label)).toEqual(['Colour', 'Size', 'Confirm']);
    expect(answerPlan('opencode', first, { option: 2 })).toEqual({ ok: true, steps: ['2'] });
    expect(readCard('opencode', captured('questions-second'))).toMatchObject({ kind: 'wizard', question: 'How big should it be?', activeTab: 1 });
  });

  it('the review page: the answers as the body; Submit is Enter, Dismiss is Esc', () => {
    const card = readCard('opencode', captured('questions-review'))!;
    expect(card).toMatchObject({ kind: 'review', body: ['Colour: Sable', 'Size: Small'], activeTab: 2 });
    expect(answerPlan('opencode', card, { option: 1 })).toEqual({ ok: true, steps: ['Enter'] });
    expect(answerPlan('opencode', card, { option: 2 })).toEqual({ ok: true, steps: ['Escape'] });
  });
});
