import { readdirSync, readFileSync } from 'node:fs';
import { Dialog, Harness, ScreenReading, ScreenState } from '@collie/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerPlan, readCard } from './card';
import { detectHarnessFromScreen, readScreen } from './read-screen';

const Label = z.object({
  harness: Harness,
  state: ScreenState.nullable(),
  dialog: Dialog.nullable(),
  draft: z.boolean(),
  draftText: z.string().optional(),
  note: z.string().optional(),
});

/**
 * The fixture table over one agent's captured screens (`<dir>/labels.json` beside the
 * `<harness>--<name>.txt` files): each is detected as its agent and read as labelled (state,
 * dialog, draft and its exact text), and each open dialog becomes an answerable card whose
 * every option has a key plan.
 */
export function describeCaptures(dir: URL): void {
  const labels = z.record(z.string(), Label).parse(JSON.parse(readFileSync(new URL('labels.json', dir), 'utf8')));
  const screen = (name: string): string => readFileSync(new URL(`${name}.txt`, dir), 'utf8');

  it('labels every capture and captures every label', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.txt')).map((f) => f.slice(0, -'.txt'.length)).sort();
    expect(Object.keys(labels).sort()).toEqual(files);
  });

  describe.each(Object.entries(labels))('%s', (name, label) => {
    const text = screen(name);
    const reading = readScreen(label.harness, text);
    it(`is detected as ${label.harness} and read as labelled`, () => {
      expect(ScreenReading.parse(reading)).toEqual(reading);
      expect(detectHarnessFromScreen(text)).toBe(label.harness);
      if (label.state !== null) expect(reading.state).toBe(label.state);
      expect(reading.dialog).toBe(label.dialog);
      expect(reading.draft !== null).toBe(label.draft);
      if (label.draftText !== undefined) expect(reading.draft).toBe(label.draftText);
    });
    if (label.dialog !== null && label.dialog !== 'menu') {
      it('shows the dialog as an answerable card with a key plan for every option', () => {
        const card = readCard(label.harness, text);
        expect(card).not.toBeNull();
        expect(card?.kind).toBe(label.dialog);
        expect(card?.question).not.toBe('');
        expect(card?.answerable).toBe(true);
        for (const o of card?.options ?? []) expect(answerPlan(label.harness, card!, { option: o.n }).ok).toBe(true);
      });
    } else {
      it('shows no card', () => {
        expect(readCard(label.harness, text)).toBeNull();
      });
    }
  });
}

/**
 * fast-check over one agent's reader: screens made of its captured rows (kept whole, cut, or
 * shuffled) and arbitrary strings read without a throw, to a valid reading in the states a
 * reader may give, and a card only where a dialog is read.
 */
export function fuzzCaptures(harness: Harness, dir: URL): void {
  const rows = readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .flatMap((f) => readFileSync(new URL(f, dir), 'utf8').split('\n'));
  const piece = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...rows) },
    { weight: 2, arbitrary: fc.constantFrom(...rows).chain((r) => fc.nat(r.length).map((n) => r.slice(0, n))) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  );
  const screenArb = fc.tuple(fc.array(piece, { maxLength: 80 }), fc.constantFrom('\n', '\r\n')).map(([parts, end]) => parts.join(end));
  it(`${harness}: any screen reads to a valid state, and a card only over a dialog`, () => {
    fc.assert(
      fc.property(screenArb, (text) => {
        const reading = readScreen(harness, text);
        expect(ScreenReading.parse(reading)).toEqual(reading);
        expect(['idle', 'working', 'blocked', 'unknown']).toContain(reading.state);
        expect(reading.state === 'blocked').toBe(reading.dialog !== null && reading.dialog !== 'menu');
        const card = readCard(harness, text);
        if (card) expect(card.kind).toBe(reading.dialog);
      }),
      { numRuns: 400 },
    );
  });
}
