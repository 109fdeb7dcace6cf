import { describe, expect, it } from 'vitest';
import { memo } from './memo';

describe('a parse remembered by its text', () => {
  it('parses each text once, keeps no failure, and forgets all past its bound', () => {
    const parsed: string[] = [];
    const parse = memo((text: string) => {
      parsed.push(text);
      if (text === 'bad') throw new Error('does not parse');
      return { text };
    }, 2);
    const a = parse('a');
    expect(parse('a')).toBe(a);
    expect(() => parse('bad')).toThrow('does not parse');
    expect(() => parse('bad')).toThrow('does not parse');
    parse('b');
    expect(parsed).toEqual(['a', 'bad', 'bad', 'b']);
    // A third text forgets the two kept: 'a' is parsed again, as a new object.
    parse('c');
    expect(parse('a')).not.toBe(a);
    expect(parsed).toEqual(['a', 'bad', 'bad', 'b', 'c', 'a']);
  });
});
