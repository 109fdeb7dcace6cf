import { describe, expect, it } from 'vitest';
import { detectHarnessFromScreen, readScreen } from '../read-screen';

const E = '\u001b';
const BANNER = [
  'Aider v0.86.1',
  'Main model: gpt-4o with diff edit format',
  'Git repo: .git with 12 files',
  'Repo-map: using 4096 tokens, auto refresh',
  '─'.repeat(60),
];
const screen = (...rows: string[]): string => [...BANNER, ...rows].join('\r\n');

describe('aider', () => {
  it('is idle at its prompt', () => {
    const text = screen('> ');
    expect(readScreen('aider', text)).toEqual({ harness: 'aider', state: 'idle', dialog: null, draft: null });
    expect(detectHarnessFromScreen(text)).toBe('aider');
  });

  it('reads the typed text at the prompt, mode prompts too, without the faint history suggestion', () => {
    expect(readScreen('aider', screen(`> add a test${E}[2m for the parser${E}[0m`)).draft).toBe('add a test');
    expect(readScreen('aider', screen('architect> plan the refactor')).draft).toBe('plan the refactor');
  });

  it('is blocked on a yes/no question', () => {
    const text = screen('Run shell command? (Y)es/(N)o/(D)on\'t ask again [Yes]: ');
    expect(readScreen('aider', text)).toEqual({
      harness: 'aider',
      state: 'blocked',
      dialog: 'permission',
      draft: null,
    });
    expect(readScreen('aider', screen('Add file to the chat? [Yes]: ')).dialog).toBe('permission');
  });

  it('is working while it waits for the model', () => {
    expect(readScreen('aider', screen('> fix it', '', '░█        Waiting for gpt-4o')).state).toBe('working');
  });

  it('is unknown mid-output', () => {
    expect(readScreen('aider', screen('Applied edit to src/parser.py')).state).toBe('unknown');
  });
});
