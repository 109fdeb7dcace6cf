import { captureBook } from '../capture-book';
import { chatLongTurn, chatReply, chatToolCall } from '../openai-chat/scripts';
import { startChatApi } from '../openai-chat/server';
import { startTmux } from '../../tmux';
import { COLOUR_QUESTION, SIZE_QUESTION } from '../questions';
import { startOpencode } from './opencode';
import { opencodePermission, opencodeQuestion, opencodeReady, opencodeWorking } from './screen';

/**
 * Drives the real OpenCode TUI through its states against the scripted chat API and saves the
 * screens Collie reads into `outDir` as `opencode--<name>.txt`, with labels.
 *
 * @example
 * await captureOpencodeScreens('packages/bridge/src/harness/opencode/captures');
 */
export async function captureOpencodeScreens(outDir: string, size = { width: 120, height: 40 }): Promise<string[]> {
  const book = await captureBook(outDir, 'opencode');
  await using tmux = await startTmux();
  await using api = await startChatApi();
  await using oc = await startOpencode(tmux, api, size);
  const shot = () => oc.capture({ escapes: true });
  /** Presses `key` and waits until the styled screen differs (a focus move changes colours only). */
  const moved = async (key: string) => {
    const before = await shot();
    await tmux.sendKeys(oc.paneId, key);
    for (let i = 0; i < 100 && (await shot()) === before; i++) await new Promise((r) => setTimeout(r, 50));
  };
  const version = /\b(1\.\d+\.\d+)\b/.exec(await oc.capture())?.[1];

  await book.keep('fresh-idle', await shot(), { state: 'idle', dialog: null, draft: false, note: 'start screen: logo, centred prompt with its placeholder' });
  await tmux.typeText(oc.paneId, 'a draft on the start screen');
  await oc.waitForScreen(/a draft on the start screen/);
  await book.keep('draft-start', await shot(), { state: 'idle', dialog: null, draft: true, note: 'start screen with a typed draft' });
  await oc.press('C-u', (s) => !s.includes('a draft on the start screen'));

  api.script(chatReply('Hello from the scripted API. The turn is over.'));
  await oc.submit('say hello');
  await oc.waitForScreen((s) => s.includes('The turn is over.') && opencodeReady(s), 180_000);
  await book.keep('done', await shot(), { state: 'idle', dialog: null, draft: false, note: 'a finished turn in the session view, sidebar-less at 120 columns' });

  api.script(chatLongTurn(10_000, 'The long turn is over now.'));
  await oc.submit('work for a while');
  await oc.waitForScreen(opencodeWorking);
  await book.keep('working', await shot(), { state: 'working', dialog: null, draft: false, note: 'a slow streamed reply: block bar and "esc interrupt"' });
  await tmux.typeText(oc.paneId, 'typed while it works');
  await oc.waitForScreen(/typed while it works/);
  await book.keep('working-draft', await shot(), { state: 'working', dialog: null, draft: true, note: 'a draft typed during a turn' });
  await oc.press('C-u', (s) => !s.includes('typed while it works'));
  await oc.waitForScreen((s) => s.includes('The long turn is over now.') && opencodeReady(s), 120_000);

  const long = 'a longer draft that goes on and on so that the prompt box has to wrap it onto a second row and maybe a third one too';
  // Keys typed in the moment the turn ends were seen lost: type again until the box shows them.
  for (let i = 0; i < 5; i++) {
    await tmux.sendKeys(oc.paneId, 'C-u');
    await tmux.typeText(oc.paneId, long);
    if (await oc.waitForScreen(/maybe a third/, 10_000).then(() => true, () => false)) break;
  }
  await book.keep('draft-wrapped', await shot(), { state: 'idle', dialog: null, draft: true, note: 'a draft wrapped over rows' });
  await oc.press('C-u', (s) => !s.includes('maybe a third'));
  await oc.press('C-u', (s) => !s.includes('a longer draft'));

  api.script(...chatToolCall('bash', { command: 'touch made-by-bash', description: 'Create a marker file' }));
  await oc.submit('make the marker file');
  await oc.waitForScreen(opencodePermission, 120_000);
  await book.keep('permission-bash', await shot(), { state: 'blocked', dialog: 'permission', draft: false, note: 'bash permission ("permission": {"bash": "ask"}), first button focused' });
  await moved('Right');
  await book.keep('permission-bash-moved', await shot(), { state: 'blocked', dialog: 'permission', draft: false, note: 'the same, focus moved to "Allow always"' });
  await oc.press('Enter', /Always allow/);
  await book.keep('permission-always', await shot(), { state: 'blocked', dialog: 'permission', draft: false, note: 'the "Always allow" confirmation page: Confirm / Cancel' });
  await moved('Right');
  await oc.press('Enter', (s) => opencodePermission(s) && !s.includes('△ Always allow'));
  await oc.press('Enter', (s) => !opencodePermission(s));
  await oc.waitForScreen((s) => s.includes('Tool finished') && opencodeReady(s), 120_000);
  await book.keep('done-after-tool', await shot(), { state: 'idle', dialog: null, draft: false, note: 'after the allowed command ran and the turn ended' });

  const questions = [{ header: 'Colour', question: 'Which colour should the collie be?', options: [{ label: 'Black', description: 'The classic coat' }, { label: 'Sable', description: 'Golden brown' }] }];
  api.script(...chatToolCall('question', { questions }, { text: 'One question first.' }));
  await oc.submit('ask me something');
  await oc.waitForScreen(opencodeQuestion, 120_000);
  await book.keep('question', await shot(), { state: 'blocked', dialog: 'select', draft: false, note: 'the question tool, one question, two options and "Type your own answer"' });
  await moved('Down');
  await book.keep('question-moved', await shot(), { state: 'blocked', dialog: 'select', draft: false, note: 'the same, pointer on the second option' });
  await oc.press('Escape', (s) => !opencodeQuestion(s));
  await oc.waitForScreen(opencodeReady, 120_000);
  await book.keep('question-dismissed', await shot(), { state: 'idle', dialog: null, draft: false, note: 'after Esc dismissed the question' });

  // Several questions: tabs, each question's options, then a review page.
  const tabs = (s: string) => /⇆ tab\s+(?:↑↓ select\s+enter confirm|enter submit)\s+esc dismiss/u.test(s);
  api.script(...chatToolCall('question', { questions: [COLOUR_QUESTION, SIZE_QUESTION] }, { text: 'Two questions first.' }));
  await oc.submit('ask me two things');
  await oc.waitForScreen(tabs, 120_000);
  const options = (q: typeof COLOUR_QUESTION) => [...q.options.map((o) => o.label), 'Type your own answer'];
  await book.keep('questions', await shot(), { state: 'blocked', dialog: 'wizard', draft: false, options: options(COLOUR_QUESTION), note: 'the question tool with two questions: tabs "Colour Size Confirm", the first open' });
  await oc.press('2', /How big should it be\?/u);
  await book.keep('questions-second', await shot(), { state: 'blocked', dialog: 'wizard', draft: false, options: options(SIZE_QUESTION), note: 'the same after 2: the second tab open' });
  await oc.press('1', /Size: Small/u);
  await book.keep('questions-review', await shot(), { state: 'blocked', dialog: 'review', draft: false, options: ['Submit', 'Dismiss'], note: 'the same after 1: the Confirm tab reviews the answers; enter submit, esc dismiss' });
  await oc.press('Enter', (s) => !tabs(s));
  await oc.waitForScreen(opencodeReady, 120_000);

  return book.finish(`OpenCode ${version ?? '1.18'} in a ${size.width}×${size.height} tmux pane`);
}
