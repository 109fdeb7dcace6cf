import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { claudeInputReady, claudeInputText, claudePermissionDialog, claudeQuestionDialog, claudeWorking } from '../src';

const captures = join(import.meta.dirname, '..', '..', 'bridge', 'src', 'harness', 'claude', 'captures');
/** A saved screen without its SGR styling, as `capture-pane -p` gives it. */
const screen = (name: string) => readFileSync(join(captures, `${name}.txt`), 'utf8').replace(/\u001b\[[0-9;]*m/g, '');

describe('the test kit’s readiness signals on captured 2.1.334 screens', () => {
  test.each([
    ['fresh-idle', { ready: true, working: false, permission: false, question: false }],
    ['done', { ready: true, working: false, permission: false, question: false }],
    ['working', { ready: true, working: true, permission: false, question: false }],
    ['permission-bash', { ready: false, working: false, permission: true, question: false }],
    ['select-question', { ready: false, working: false, permission: false, question: true }],
  ])('%s', (name, expected) => {
    const s = screen(name);
    expect({
      ready: claudeInputReady(s),
      working: claudeWorking(s),
      permission: claudePermissionDialog(s),
      question: claudeQuestionDialog(s),
    }).toEqual(expected);
  });

  test('the input box text, wrapped lines joined; none while a dialog has the screen', () => {
    const rule = '─'.repeat(40);
    expect(claudeInputText(`❯ earlier prompt\n\n${rule}\n❯ first line of a draft that\n  wraps onto a second\n${rule}\n  footer`)).toBe(
      'first line of a draft that\nwraps onto a second',
    );
    expect(claudeInputText(screen('fresh-idle'))).toBe('');
    expect(claudeInputText(screen('permission-bash'))).toBeUndefined();
  });
});
