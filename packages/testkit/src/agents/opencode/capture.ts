import type { CaptureDriver, CaptureLabel } from '../../capture/driver';
import { captureReadme } from '../../capture/driver';
import { chatLongTurn, chatReply, chatToolCall } from '../openai-chat/scripts';
import { startChatApi } from '../openai-chat/server';
import { COLOUR_QUESTION, SIZE_QUESTION } from '../questions';
import { startOpencode } from './opencode';
import { opencodePermission, opencodeQuestion, opencodeReady, opencodeWorking } from './screen';

const SIZE = { width: 120, height: 40 };

/**
 * OpenCode's capture driver: drives the real TUI against the scripted chat API and keeps its
 * screens as `opencode--<name>`: the start screen and drafts, a finished and a running turn, the
 * bash permission (each button, the "Always allow" page), the question tool with one and two
 * questions (each tab and the review page).
 */
export const opencodeCaptureDriver: CaptureDriver = {
  agent: 'opencode',
  async capture({ tmux, keep }) {
    await using api = await startChatApi();
    await using oc = await startOpencode(tmux, api, SIZE);
    const keepNow = (name: string, label: CaptureLabel) => keep(oc.paneId, `opencode--${name}`, label);
    const shot = () => oc.capture({ escapes: true });
    /** Presses `key` and waits until the styled screen differs (a focus move changes colours only). */
    const moved = async (key: string) => {
      const before = await shot();
      await tmux.sendKeys(oc.paneId, key);
      for (let i = 0; i < 100 && (await shot()) === before; i++) await new Promise((r) => setTimeout(r, 50));
    };
    const version = /\b(1\.\d+\.\d+)\b/.exec(await oc.capture())?.[1] ?? 'unknown';

    await keepNow('fresh-idle', { state: 'idle', dialog: null, draft: false, note: 'start screen: logo, centred prompt with its placeholder' });
    await tmux.typeText(oc.paneId, 'a draft on the start screen');
    await oc.waitForScreen(/a draft on the start screen/);
    await keepNow('draft-start', { state: 'idle', dialog: null, draft: true, note: 'start screen with a typed draft' });
    await oc.press('C-u', (s) => !s.includes('a draft on the start screen'));

    api.script(chatReply('Hello from the scripted API. The turn is over.'));
    await oc.submit('say hello');
    await oc.waitForScreen((s) => s.includes('The turn is over.') && opencodeReady(s), 180_000);
    await keepNow('done', { state: 'idle', dialog: null, draft: false, note: 'a finished turn in the session view, sidebar-less at 120 columns' });

    api.script(chatLongTurn(10_000, 'The long turn is over now.'));
    await oc.submit('work for a while');
    await oc.waitForScreen(opencodeWorking);
    await keepNow('working', { state: 'working', dialog: null, draft: false, note: 'a slow streamed reply: block bar and "esc interrupt"' });
    await tmux.typeText(oc.paneId, 'typed while it works');
    await oc.waitForScreen(/typed while it works/);
    await keepNow('working-draft', { state: 'working', dialog: null, draft: true, note: 'a draft typed during a turn' });
    await oc.press('C-u', (s) => !s.includes('typed while it works'));
    await oc.waitForScreen((s) => s.includes('The long turn is over now.') && opencodeReady(s), 120_000);

    const long = 'a longer draft that goes on and on so that the prompt box has to wrap it onto a second row and maybe a third one too';
    // Keys typed in the moment the turn ends were seen lost: type again until the box shows them.
    for (let i = 0; i < 5; i++) {
      await tmux.sendKeys(oc.paneId, 'C-u');
      await tmux.typeText(oc.paneId, long);
      if (await oc.waitForScreen(/maybe a third/, 10_000).then(() => true, () => false)) break;
    }
    await keepNow('draft-wrapped', { state: 'idle', dialog: null, draft: true, note: 'a draft wrapped over rows' });
    await oc.press('C-u', (s) => !s.includes('maybe a third'));
    await oc.press('C-u', (s) => !s.includes('a longer draft'));

    api.script(...chatToolCall('bash', { command: 'touch made-by-bash', description: 'Create a marker file' }));
    await oc.submit('make the marker file');
    await oc.waitForScreen(opencodePermission, 120_000);
    await keepNow('permission-bash', { state: 'blocked', dialog: 'permission', draft: false, note: 'bash permission ("permission": {"bash": "ask"}), first button focused' });
    await moved('Right');
    await keepNow('permission-bash-moved', { state: 'blocked', dialog: 'permission', draft: false, note: 'the same, focus moved to "Allow always"' });
    await oc.press('Enter', /Always allow/);
    await keepNow('permission-always', { state: 'blocked', dialog: 'permission', draft: false, note: 'the "Always allow" confirmation page: Confirm / Cancel' });
    await moved('Right');
    await oc.press('Enter', (s) => opencodePermission(s) && !s.includes('△ Always allow'));
    await oc.press('Enter', (s) => !opencodePermission(s));
    await oc.waitForScreen((s) => s.includes('Tool finished') && opencodeReady(s), 120_000);
    await keepNow('done-after-tool', { state: 'idle', dialog: null, draft: false, note: 'after the allowed command ran and the turn ended' });

    const questions = [{ header: 'Colour', question: 'Which colour should the collie be?', options: [{ label: 'Black', description: 'The classic coat' }, { label: 'Sable', description: 'Golden brown' }] }];
    api.script(...chatToolCall('question', { questions }, { text: 'One question first.' }));
    await oc.submit('ask me something');
    await oc.waitForScreen(opencodeQuestion, 120_000);
    await keepNow('question', { state: 'blocked', dialog: 'select', draft: false, note: 'the question tool, one question, two options and "Type your own answer"' });
    await moved('Down');
    await keepNow('question-moved', { state: 'blocked', dialog: 'select', draft: false, note: 'the same, pointer on the second option' });
    await oc.press('Escape', (s) => !opencodeQuestion(s));
    await oc.waitForScreen(opencodeReady, 120_000);
    await keepNow('question-dismissed', { state: 'idle', dialog: null, draft: false, note: 'after Esc dismissed the question' });

    // Several questions: tabs, each question's options, then a review page.
    const tabs = (s: string) => /⇆ tab\s+(?:↑↓ select\s+enter confirm|enter submit)\s+esc dismiss/u.test(s);
    api.script(...chatToolCall('question', { questions: [COLOUR_QUESTION, SIZE_QUESTION] }, { text: 'Two questions first.' }));
    await oc.submit('ask me two things');
    await oc.waitForScreen(tabs, 120_000);
    const options = (q: typeof COLOUR_QUESTION) => [...q.options.map((o) => o.label), 'Type your own answer'];
    await keepNow('questions', { state: 'blocked', dialog: 'wizard', draft: false, options: options(COLOUR_QUESTION), note: 'the question tool with two questions: tabs "Colour Size Confirm", the first open' });
    await oc.press('2', /How big should it be\?/u);
    await keepNow('questions-second', { state: 'blocked', dialog: 'wizard', draft: false, options: options(SIZE_QUESTION), note: 'the same after 2: the second tab open' });
    await oc.press('1', /Size: Small/u);
    await keepNow('questions-review', { state: 'blocked', dialog: 'review', draft: false, options: ['Submit', 'Dismiss'], note: 'the same after 1: the Confirm tab reviews the answers; enter submit, esc dismiss' });
    await oc.press('Enter', (s) => !tabs(s));
    await oc.waitForScreen(opencodeReady, 120_000);

    return { version, readme: captureReadme('OpenCode', 'opencode', version, SIZE, 'the scripted chat-completions API') };
  },
};
