import { describe, expect, it } from 'vitest';
import { detectHarnessFromScreen, readScreen } from '../read-screen';

/** OpenCode's prompt box and the status row under it. */
const screen = (status: string, ...above: string[]): string =>
  [...above, '┃', '┃  fix the tests', '┃', '┃  Build  claude-sonnet-4 Anthropic', '╹' + '▀'.repeat(40), status].join(
    '\n',
  );

describe('OpenCode', () => {
  it('is idle when the status row shows its key hints', () => {
    const text = screen('                                        tab agents  ctrl+p commands');
    expect(readScreen('opencode', text)).toEqual({ harness: 'opencode', state: 'idle', dialog: null, draft: null });
    expect(detectHarnessFromScreen(text)).toBe('opencode');
  });

  it('is working while the status row offers esc interrupt', () => {
    expect(readScreen('opencode', screen('  ⬝⬝■■  esc interrupt              ctrl+p commands')).state).toBe('working');
    expect(readScreen('opencode', screen('  ⬝■■⬝  esc again to interrupt     ctrl+p commands')).state).toBe('working');
  });

  it('is blocked on a permission request', () => {
    const text = [
      '△ Permission required',
      '  # Shell command',
      '  $ rm -rf build',
      '',
      '  Allow once   Allow always   Reject',
    ].join('\n');
    expect(readScreen('opencode', text)).toEqual({
      harness: 'opencode',
      state: 'blocked',
      dialog: 'permission',
      draft: null,
    });
  });

  it('is unknown without any of its signs', () => {
    expect(readScreen('opencode', 'plain text').state).toBe('unknown');
  });
});
