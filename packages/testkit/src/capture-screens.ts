import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { claudeInputReady, claudePermissionDialog, claudeQuestionDialog, claudeWorking } from './claude-screen';
import { startClaude } from './claude';
import { startMessagesApi } from './messages-api';
import { askUserQuestion, bashPermission, longTurn, plainReply } from './scenarios';
import { startTmux } from './tmux';

/** A screen worth keeping, with what a correct reading of it is (as in the fixtures' labels). */
interface Label {
  harness: 'claude';
  state: 'idle' | 'working' | 'blocked';
  dialog: null | 'permission' | 'select';
  draft: false;
  note: string;
}

/**
 * Drives the real Claude Code TUI through a short conversation against the scripted API and
 * saves the screens Collie reads (`capture-pane -e -p`: SGR kept, LF line ends) into `outDir`
 * as `claude--<name>.txt`, with a `labels.json` in the fixture corpus's format.
 *
 * @example
 * const names = await captureClaudeScreens('packages/testkit/captures');
 */
export async function captureClaudeScreens(outDir: string, size = { width: 120, height: 40 }): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  await using tmux = await startTmux();
  await using api = await startMessagesApi();
  await using claude = await startClaude(tmux, api, size);
  const labels: Record<string, Label> = {};
  let version = '';

  const keep = async (name: string, label: Omit<Label, 'harness' | 'draft'>) => {
    const screen = await claude.capture({ escapes: true });
    version ||= /Claude Code v(\S+)/.exec(await claude.capture())?.[1] ?? '';
    await writeFile(join(outDir, `claude--${name}.txt`), screen);
    labels[`claude--${name}`] = { harness: 'claude', state: label.state, dialog: label.dialog, draft: false, note: label.note };
  };

  await keep('fresh-idle', { state: 'idle', dialog: null, note: 'just started: logo header, empty input box' });

  api.script(plainReply('Hello from the scripted API. The turn is over.'));
  await claude.submit('say hello');
  await claude.waitForScreen((s) => s.includes('The turn is over.') && claudeInputReady(s));
  // A moment after the turn, a detached tmux server earns the CLI's focus-events hint above the box.
  await claude.waitForScreen(/focus-events off/).catch(() => undefined);
  await keep('done', { state: 'idle', dialog: null, note: 'a finished turn: the reply, the "done" line, the tmux focus-events hint above the box' });

  api.script(longTurn(8_000, 'The long turn is over.'));
  await claude.submit('work for a while');
  await claude.waitForScreen(claudeWorking);
  await claude.waitForScreen(/\(\d+s/); // let the spinner line grow its elapsed time
  await keep('working', { state: 'working', dialog: null, note: 'a long turn streaming; "esc to interrupt" in the footer' });
  await claude.waitForScreen((s) => s.includes('The long turn is over.') && claudeInputReady(s), 20_000);

  api.script(bashPermission('touch made-by-bash', { description: 'Create a marker file' }));
  await claude.submit('make the marker file');
  await claude.waitForScreen(claudePermissionDialog);
  await keep('permission-bash', { state: 'blocked', dialog: 'permission', note: 'Bash permission dialog, default (manual) mode' });
  await claude.press('Enter', (s) => !claudePermissionDialog(s));
  await claude.waitForScreen((s) => s.includes('The command finished') && claudeInputReady(s));

  api.script(
    askUserQuestion([
      {
        question: 'Which colour should the collie be?',
        header: 'Colour',
        options: [
          { label: 'Black', description: 'The classic coat' },
          { label: 'Sable', description: 'Golden brown' },
        ],
      },
    ]),
  );
  await claude.submit('ask me something');
  await claude.waitForScreen(claudeQuestionDialog);
  await keep('select-question', { state: 'blocked', dialog: 'select', note: 'AskUserQuestion, one question, single select' });

  await writeFile(join(outDir, 'labels.json'), `${JSON.stringify(labels, null, 1)}\n`);
  await writeFile(
    join(outDir, 'README.md'),
    [
      '# Screens of the current Claude Code binary',
      '',
      `Captured by \`npm run capture-screens -w @collie/testkit\` from Claude Code ${version} in a ${size.width}×${size.height}`,
      'tmux pane, against the scripted Messages API, with `capture-pane -e -p` (SGR kept, LF line ends).',
      '`labels.json` says what a correct reading of each is, in the format of `shared/fixtures/panes/labels.json`.',
      '',
    ].join('\n'),
  );
  return Object.keys(labels);
}
