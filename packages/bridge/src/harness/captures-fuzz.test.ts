import { readdirSync, readFileSync } from 'node:fs';
import { ScreenReading } from '@collie/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { captureCorpora } from './capture-labels';
import { readCard } from './card';
import { readScreen } from './read-screen';

/**
 * fast-check over each reader that has a corpus of real screens: screens made of its captured
 * rows (kept whole, cut, or shuffled) and arbitrary strings read without a throw, to a valid
 * reading in the states a reader may give, and a card only where a dialog is read.
 */
const all = captureCorpora(new URL('./', import.meta.url));
const corpora = [...new Set(all.map((c) => c.agent))];

describe.each(corpora)('the %s reader on screens made of its captured rows', (harness) => {
  // Rows of every release captured.
  const rows = all
    .filter((c) => c.agent === harness)
    .flatMap((c) => readdirSync(c.dir).filter((f) => f.endsWith('.txt')).map((f) => new URL(f, c.dir)))
    .flatMap((f) => readFileSync(f, 'utf8').split('\n'));
  const piece = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...rows) },
    { weight: 2, arbitrary: fc.constantFrom(...rows).chain((r) => fc.nat(r.length).map((n) => r.slice(0, n))) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  );
  const screenArb = fc.tuple(fc.array(piece, { maxLength: 80 }), fc.constantFrom('\n', '\r\n')).map(([parts, end]) => parts.join(end));

  it('reads any screen to a valid state, and makes a card only over a dialog', () => {
    fc.assert(
      fc.property(screenArb, (text) => {
        const reading = readScreen(harness, text);
        expect(ScreenReading.parse(reading)).toEqual(reading);
        expect(['idle', 'working', 'blocked', 'unknown']).toContain(reading.state);
        expect(reading.state === 'blocked').toBe(reading.dialog !== null && reading.dialog !== 'menu');
        const card = readCard(harness, text);
        if (card) expect(card.kind).toBe(reading.dialog);
      }),
      { numRuns: 300 },
    );
  });
});
