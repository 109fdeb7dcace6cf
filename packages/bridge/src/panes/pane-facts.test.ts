import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { harnessFromFacts } from './pane-facts';

const screen = readFileSync(new URL('../../../testkit/corpus/panes/claude--working.txt', import.meta.url), 'utf8');

describe('harness from the process tree and the screen', () => {
  it('the process tree wins when it names an agent', () => {
    expect(harnessFromFacts('codex', 'node', screen)).toBe('codex');
  });
  it('an unknown foreground program showing an agent screen is that agent', () => {
    expect(harnessFromFacts('shell', 'my-wrapper', screen)).toBe('claude');
    expect(harnessFromFacts('shell', 'my-wrapper', 'plain output\n$ ')).toBe('shell');
  });
  it('a shell in the foreground stays a shell, whatever it printed', () => {
    expect(harnessFromFacts('shell', 'bash', screen)).toBe('shell');
    expect(harnessFromFacts('shell', '-zsh', screen)).toBe('shell');
  });
});
