import { describe, expect, it } from 'vitest';
import { findRuledBox, isRule } from './rules';
import { plainLine } from './styled-line';

const rule = (n: number): string => '─'.repeat(n);

describe('isRule', () => {
  it('accepts a plain rule, an indented one and one carrying a label', () => {
    expect(isRule(rule(40))).toBe(true);
    expect(isRule(`  ${rule(40)}  `)).toBe(true);
    expect(isRule(`${rule(58)} refactor the auth module ──`)).toBe(true);
  });

  it('rejects short rules, mostly-text rows, box edges and tables', () => {
    expect(isRule(rule(7))).toBe(false);
    expect(isRule(`── ${'word '.repeat(10)}──`)).toBe(false);
    expect(isRule(`╭${rule(40)}╮`)).toBe(false);
    expect(isRule(`${rule(20)}┼${rule(20)}`)).toBe(false);
    expect(isRule('╌'.repeat(40))).toBe(false);
  });
});

describe('findRuledBox', () => {
  const prompt = { firstRow: (l: { text: string }) => l.text.startsWith('❯') };
  const lines = (rows: string[]) => rows.map(plainLine);

  it('finds the lowest pair of rules whose first row passes', () => {
    const rows = ['history', rule(30), '❯ old', rule(30), 'text', rule(30), '❯ new', '  more', rule(30), 'footer'];
    const box = findRuledBox(lines(rows), prompt);
    expect(box?.top).toBe(5);
    expect(box?.bottom).toBe(8);
    expect(box?.inner.map((l) => l.text)).toEqual(['❯ new', '  more']);
    expect(box?.width).toBe(30);
  });

  it('skips pairs whose first row does not pass', () => {
    const box = findRuledBox(lines([rule(30), '❯ box', rule(30), ' ☐ Tab', rule(30)]), prompt);
    expect(box?.top).toBe(0);
  });

  it('ignores a box with too much under it: that is history, not the live box', () => {
    const rows = [rule(30), '❯ old', rule(30), ...Array.from({ length: 30 }, (_, i) => `line ${i}`)];
    expect(findRuledBox(lines(rows), prompt)).toBeNull();
    expect(findRuledBox(lines(rows), { ...prompt, maxBelow: 40 })?.top).toBe(0);
  });

  it('returns null without two rules', () => {
    expect(findRuledBox(lines([rule(30), '❯ x']), prompt)).toBeNull();
  });
});
