import { describe, expect, it } from 'vitest';
import { detectHarnessFromScreen, readScreen } from '../read-screen';

const E = '\u001b';
const dim = (s: string): string => `${E}[2m${s}${E}[0m`;
/** Codex's screen as its TUI snapshots draw it: header card, transcript, composer, footer. */
const screen = (...bottom: string[]): string =>
  [
    '╭───────────────────────────────────────────╮',
    '│ >_ OpenAI Codex (v0.46.0)                 │',
    '│ model:     gpt-5-codex   /model to change │',
    '╰───────────────────────────────────────────╯',
    '',
    ...bottom,
    '',
    '  ? for shortcuts                                    100% context left',
  ].join('\r\n');

describe('Codex', () => {
  it('is idle with an empty composer showing its faint example prompt', () => {
    const text = screen(`› ${dim('Ask Codex to do anything')}`);
    expect(readScreen('codex', text)).toEqual({ harness: 'codex', state: 'idle', dialog: null, draft: null });
    expect(detectHarnessFromScreen(text)).toBe('codex');
  });

  it('knows its example prompts even where the faint style was lost', () => {
    expect(readScreen('codex', screen('› Find and fix a bug in @filename')).draft).toBeNull();
  });

  it('reads a typed draft, continuation rows included', () => {
    expect(readScreen('codex', screen('› fix the flaky', '  test in ci')).draft).toBe('fix the flaky test in ci');
  });

  it('is working while the status row offers esc to interrupt', () => {
    const text = screen(
      '› run the tests',
      '',
      '• Working (5s • esc to interrupt)',
      '',
      `› ${dim('Ask Codex to do anything')}`,
    );
    expect(readScreen('codex', text)).toMatchObject({ state: 'working', dialog: null, draft: null });
  });

  it('is blocked on the approval overlay', () => {
    // The overlay takes the composer's and footer's place: its hint is the last row (Codex 0.171).
    const text = [
      '  Would you like to run the following command?',
      '',
      '  $ rm -rf build',
      '',
      '› 1. Yes, proceed (y)',
      "  2. Yes, and don't ask again for this command (a)",
      '  3. No, and tell Codex what to do differently (esc)',
      '',
      '  Press enter to confirm or esc to cancel',
    ].join('\r\n');
    expect(readScreen('codex', text)).toEqual({
      harness: 'codex',
      state: 'blocked',
      dialog: 'permission',
      draft: null,
    });
  });

  it('is blocked on the folder trust question', () => {
    // A dialog takes the composer's and footer's place: its hint is the last row (Codex 0.171).
    const text = [
      '  Folder access',
      '  /home/me/project',
      '',
      '  Trust this folder? Codex can read, edit, and run files here, subject to your permission settings.',
      '',
      '› 1. Trust and continue',
      '  2. Back to Agent Command Center',
      '',
      '  enter continue · esc back',
    ].join('\r\n');
    expect(readScreen('codex', text)).toMatchObject({ state: 'blocked', dialog: 'trust' });
  });
});
