import { describe, expect, it } from 'vitest';
import { detectHarnessFromScreen, readScreen } from '../read-screen';

const E = '\u001b';
const RULE = '─'.repeat(80);
/** pi's editor between two rules with its footer (directory, then stats and model). */
const screen = (above: string[], ...editor: string[]): string =>
  [
    ...above,
    RULE,
    ...editor,
    RULE,
    `${E}[2m~/project (main)${E}[0m`,
    `${E}[2m↑1.2k ↓340 $0.012 3.1%/200k (auto)                          claude-sonnet-4${E}[0m`,
  ].join('\n');

describe('pi', () => {
  it('is idle with an empty editor', () => {
    const text = screen(['Done.'], '');
    expect(readScreen('pi', text)).toEqual({ harness: 'pi', state: 'idle', dialog: null, draft: null });
    expect(detectHarnessFromScreen(text)).toBe('pi');
  });

  it('reads the editor rows as the draft', () => {
    expect(readScreen('pi', screen([], 'refactor the parser', 'then run the tests')).draft).toBe(
      'refactor the parser\nthen run the tests',
    );
  });

  it('is working while the loader offers esc to interrupt', () => {
    expect(readScreen('pi', screen(['⠋ Working... (esc to interrupt)', ''], '')).state).toBe('working');
  });
});
