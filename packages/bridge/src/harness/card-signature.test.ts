import { describe, expect, it } from 'vitest';
import { cardSignature, fnv1a64, type CardText } from './card-signature';

describe('fnv1a64', () => {
  // Reference values of FNV-1a 64 (offset basis cbf29ce484222325, prime 100000001b3).
  it.each([
    ['', 'cbf29ce484222325'],
    ['a', 'af63dc4c8601ec8c'],
    ['foobar', '85944171f73967e8'],
  ])('%j → %s', (text, hash) => {
    expect(fnv1a64(text)).toBe(hash);
  });

  it('hashes the UTF-8 bytes, so non-ASCII text is stable across runtimes', () => {
    expect(fnv1a64('❯ Grün')).toBe(fnv1a64('❯ Grün'));
    expect(fnv1a64('❯ Grün')).not.toBe(fnv1a64('❯ Grun'));
    expect(fnv1a64('❯ Grün')).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('cardSignature', () => {
  const card: CardText = {
    kind: 'multiselect',
    title: 'Toppings',
    body: [],
    question: 'Which toppings?',
    options: [
      { n: 1, label: 'Cheese', description: 'Melted.', checked: false, freeText: false },
      { n: 2, label: 'Type something', description: null, checked: false, freeText: true },
    ],
    tabs: [
      { label: 'Toppings', answered: false },
      { label: 'Submit', answered: false },
    ],
    activeTab: 0,
  };
  const sig = cardSignature(card);

  it('ignores ticks and answered marks', () => {
    expect(cardSignature({ ...card, options: card.options.map((o) => ({ ...o, checked: true })) })).toBe(sig);
    expect(cardSignature({ ...card, tabs: card.tabs.map((t) => ({ ...t, answered: true })) })).toBe(sig);
  });

  it.each<[string, CardText]>([
    ['kind', { ...card, kind: 'wizard' }],
    ['title', { ...card, title: 'Toppings!' }],
    ['body', { ...card, body: ['x'] }],
    ['question', { ...card, question: 'Which?' }],
    ['a label', { ...card, options: [{ ...card.options[0]!, label: 'Cheddar' }, card.options[1]!] }],
    ['a description', { ...card, options: [{ ...card.options[0]!, description: 'Grated.' }, card.options[1]!] }],
    ['a tab label', { ...card, tabs: [{ label: 'Crust', answered: false }, card.tabs[1]!] }],
    ['the open tab', { ...card, activeTab: 1 }],
  ])('changes with %s', (_, other) => {
    expect(cardSignature(other)).not.toBe(sig);
  });

  it('keeps the parts apart: text moved from the title to the question is another card', () => {
    expect(cardSignature({ ...card, title: 'AB', question: '' })).not.toBe(cardSignature({ ...card, title: 'A', question: 'B' }));
  });
});
