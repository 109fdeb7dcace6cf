import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScreen } from '../screen/parse-screen';
import { isTurnRunning } from './activity';
import { findInputBox } from './input-box';

const FIXTURES = new URL('../../../../testkit/corpus/panes/', import.meta.url);
const RULE = '─'.repeat(60);
const running = (rows: string[]): boolean => {
  const lines = parseScreen(rows.join('\n'));
  return isTurnRunning(lines, findInputBox(lines)?.top ?? null);
};
const withBox = (...above: string[]): string[] => [...above, '', RULE, '❯\u00a0', RULE, '  footer'];

describe('Claude turn spinner', () => {
  it('reads the 2.1 spinner row above the box as a running turn', () => {
    expect(running(withBox('✢ Puzzling… (3m 3s · ↓ 9.2k tokens)'))).toBe(true);
    expect(running(withBox('· Thinking…'))).toBe(true);
  });

  it('reads older builds by their interrupt hint', () => {
    expect(running(withBox('✽ Thinking… (12s · ↑ 1.2k tokens · esc to interrupt)'))).toBe(true);
  });

  it('sees a spinner with a task list hanging under it', () => {
    expect(running(withBox('✶ Running tests… (40s)', '  ⎿  ☒ Write the parser', '     ☐ Run the tests'))).toBe(true);
  });

  it('does not read a finished turn, or a spinner above one, as running', () => {
    expect(running(withBox('✻ Crunched for 19m 37s'))).toBe(false);
    expect(running(withBox('✢ Puzzling… (3m)', '● Done.', '✻ Crunched for 3m 4s'))).toBe(false);
    expect(running(withBox('✻ Waiting for 1 background agent to finish'))).toBe(false);
  });

  it('does not take ordinary text ending in an ellipsis for a spinner', () => {
    expect(running(withBox('● Running 1 shell command…'))).toBe(false);
    expect(running(withBox('Loading…'))).toBe(false);
  });

  it('turns the real working capture idle once its spinner row is gone', () => {
    const text = readFileSync(new URL('claude--working.txt', FIXTURES), 'utf8');
    const lines = parseScreen(text);
    const top = findInputBox(lines)?.top ?? null;
    expect(isTurnRunning(lines, top)).toBe(true);
    const without = parseScreen(text.split(/\r?\n/).filter((r) => !r.includes('Puzzling')).join('\n'));
    expect(isTurnRunning(without, findInputBox(without)?.top ?? null)).toBe(false);
  });
});
