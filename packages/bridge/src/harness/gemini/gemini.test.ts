import { describe, expect, it } from 'vitest';
import { detectHarnessFromScreen, readScreen } from '../read-screen';

const W = 70;
const boxRow = (text: string) => `│ ${text}${' '.repeat(Math.max(0, W - 4 - text.length))} │`;
/** Gemini CLI's input box and footer, as its Ink components render them. */
const screen = (...rows: string[]): string =>
  [
    '✦ Done. The tests pass now.',
    '',
    ...rows,
    '~/project (main*)        no sandbox (see /docs)        gemini-2.5-pro (99% context left)',
  ].join('\n');
const box = (...rows: string[]) => ['╭' + '─'.repeat(W - 2) + '╮', ...rows.map(boxRow), '╰' + '─'.repeat(W - 2) + '╯'];

describe('Gemini CLI', () => {
  it('is idle with the placeholder in the box (grey, but recognised by its words)', () => {
    const text = screen(...box('>   Type your message or @path/to/file'));
    expect(readScreen('gemini', text)).toEqual({ harness: 'gemini', state: 'idle', dialog: null, draft: null });
    expect(detectHarnessFromScreen(text)).toBe('gemini');
  });

  it('reads a typed draft across the box rows', () => {
    expect(readScreen('gemini', screen(...box('> explain the build', '  and the tests'))).draft).toBe(
      'explain the build and the tests',
    );
  });

  it('is working while the loading row offers esc to cancel', () => {
    const loading = '⠏ Counting electrons... (esc to cancel, 5s)';
    const text = screen(loading, '', ...box('>   Type your message or @path/to/file'));
    expect(readScreen('gemini', text).state).toBe('working');
  });

  // A dialog is a box that takes the input box's and the footer's place (Gemini CLI 0.61).
  it('is blocked on a tool confirmation', () => {
    const text = [
      '✦ Done. The tests pass now.',
      ...box('? Shell  echo "hello"', "Allow execution of: 'echo'?", '', '● 1. Allow once', '  2. Allow for this session', '  3. No, suggest changes (esc)'),
    ].join('\n');
    expect(readScreen('gemini', text)).toEqual({
      harness: 'gemini',
      state: 'blocked',
      dialog: 'permission',
      draft: null,
    });
  });

  it('is blocked on the folder trust question', () => {
    const text = box('Do you trust this folder?', '● 1. Trust folder (project)', '  2. Trust parent folder', "  3. Don't trust (esc)").join('\n');
    expect(readScreen('gemini', text)).toMatchObject({ state: 'blocked', dialog: 'trust' });
  });

  // Gemini CLI 0.61 resuming a session (`--resume`): the session's turns are drawn at once, the
  // input box is not (it takes no keys until the load ends), the spinner row in its place.
  const resumingScreen = (spinner: string) =>
    [
      'Tips for getting started:',
      '4. Be specific for the best results',
      '▄'.repeat(W),
      ' > remember the word heron',
      '▀'.repeat(W),
      '✦ Answer about the heron.',
      `${spinner}Resuming session...`,
      '',
      '─'.repeat(W),
      ' Shift+Tab to accept edits',
      ' workspace (/directory)                   sandbox',
      ' /tmp/g-f-V0Zw9m                          no sandbox',
    ].join('\n');
  it('is not idle while it loads a resumed session, and the transcript\'s last message is no draft', () => {
    for (const spinner of ['⠋ ', '⠹ ', ''])
      expect(readScreen('gemini', resumingScreen(spinner))).toEqual({ harness: 'gemini', state: 'unknown', dialog: null, draft: null, reason: 'Gemini CLI is loading the resumed session' });
    const loaded = resumingScreen('⠋ ').replace(/⠋ Resuming session\.\.\./u, ['▄'.repeat(W), ' >   Type your message or @path/to/file', '▀'.repeat(W)].join('\n'));
    expect(readScreen('gemini', loaded)).toEqual({ harness: 'gemini', state: 'idle', dialog: null, draft: null });
    // A message that says the words is a message, not the spinner.
    const said = resumingScreen('⠋ ').replace('⠋ Resuming session...', ['▄'.repeat(W), ' > Resuming session... is what it said', '▀'.repeat(W)].join('\n'));
    expect(readScreen('gemini', said).draft).toBe('Resuming session... is what it said');
  });
});
