import { describe, expect, it } from 'vitest';
import { parseScreen } from '../screen/parse-screen';
import { readQuestionDialog } from './ask-user-question';
import { readDialog } from './dialog';
import { readClaude } from './index';

const RULE = '─'.repeat(100);
const dialogOf = (rows: string[]) => readDialog(parseScreen(rows.join('\r\n')));

describe('Claude AskUserQuestion', () => {
  const question = (tabBar: string, ...options: string[]) => [
    RULE,
    tabBar,
    '',
    'Which one?',
    '',
    ...options,
    '  3. Type something.',
    RULE,
    '  4. Chat about this',
    '',
    'Enter to select · ↑/↓ to navigate · Esc to cancel',
  ];

  it('reads a single question as select', () => {
    expect(readQuestionDialog(question(' ☐ Theme ', '❯ 1. Red', '  2. Blue'))).toBe('select');
  });

  it('reads checkboxes as multiselect, and two question tabs as a wizard', () => {
    expect(readQuestionDialog(question('← ☐ Toppings  ✔ Submit  →', '❯ 1. [ ] Cheese', '  2. [✔] Olives'))).toBe(
      'multiselect',
    );
    expect(readQuestionDialog(question('← ☐ Toppings  ☐ Crust  ✔ Submit  →', '❯ 1. [ ] Cheese'))).toBe('wizard');
    expect(readQuestionDialog(question('← ☒ Size  ☐ Extras  ✔ Submit  →', '❯ 1. Small', '  2. Large'))).toBe('wizard');
  });

  it('reads a preview mockup beside the options as preview', () => {
    const rows = question(' ☐ Design ', '❯ 1. Boxy      ┌──────────┐', '  2. Rounded   │ mockup   │');
    expect(readQuestionDialog(rows)).toBe('preview');
  });

  it('reads the Submit page as review', () => {
    expect(
      readQuestionDialog([
        RULE,
        '←  ☒ Focus  ☒ Scope  ✔ Submit  →',
        'Review your answers',
        'Ready to submit your answers?',
        '❯ 1. Submit answers',
        '  2. Cancel',
      ]),
    ).toBe('review');
  });

  it('finds nothing on rows without its chrome', () => {
    expect(readQuestionDialog(['● Sure.', '1. First point', '2. Second point'])).toBeNull();
  });
});

describe('Claude modals', () => {
  it('reads a Bash permission by its question and "don\'t ask again" option', () => {
    const rows = [
      RULE,
      ' Bash command',
      '   rm -rf build',
      ' Do you want to proceed?',
      ' ❯ 1. Yes',
      "   2. Yes, and don't ask again for rm commands in /work",
      '   3. No, and tell Claude what to do differently (esc)',
    ];
    expect(dialogOf(rows)).toBe('permission');
  });

  it('prefers plan approval over permission when the plan body asks a question', () => {
    const rows = [
      ' Here is Claude\'s plan:',
      ' Step 1: ask "Do you want to keep the old API?"',
      RULE,
      ' Claude has written up a plan and is ready to execute. Would you like to proceed?',
      ' ❯ 1. Yes, and use auto mode',
      '   2. Yes, manually approve edits',
      '   3. Tell Claude what to change',
    ];
    expect(dialogOf(rows)).toBe('plan');
  });

  it('reads a picker only with its key hints at the bottom', () => {
    const picker = ['   Select model', '   ❯ 1. Default', '     2. Haiku', '', '   Enter to confirm · Esc to exit'];
    expect(dialogOf(picker)).toBe('menu');
    expect(dialogOf(picker.slice(0, 3))).toBeNull();
  });

  it('never reports a dialog while the input box is drawn', () => {
    const rows = ['● You asked: "Do you want to proceed?"', '❯ 1. Yes', '', RULE, '❯\u00a0ok', RULE, '  footer'];
    expect(readClaude(parseScreen(rows.join('\n')))).toEqual({
      harness: 'claude',
      state: 'idle',
      dialog: null,
      draft: 'ok',
    });
  });

  it('is blocked on an agent dialog but idle on a picker', () => {
    const permission = [' Do you want to create a.txt?', ' ❯ 1. Yes', '   2. No', '', ' Esc to cancel · Tab to amend'];
    expect(readClaude(parseScreen(permission.join('\n'))).state).toBe('blocked');
    const picker = ['   ❯ 1. Dark mode', '     2. Light mode', '', '   Enter to select · Esc to cancel'];
    expect(readClaude(parseScreen(picker.join('\n')))).toMatchObject({ state: 'idle', dialog: 'menu' });
  });

  it('reads unknown when neither a box nor a dialog is drawn', () => {
    expect(readClaude(parseScreen('● Some transcript text\n\n  more text')).state).toBe('unknown');
  });
});
