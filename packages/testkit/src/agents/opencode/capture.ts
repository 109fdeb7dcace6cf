import type { CaptureDriver, CaptureLabel } from '../../capture/driver';
import { captureReadme } from '../../capture/driver';
import { chatLongTurn, chatReply, chatToolCall } from '../openai-chat/scripts';
import { startChatApi } from '../openai-chat/server';
import { COLOUR_QUESTION, SIZE_QUESTION } from '../questions';
import { waitForScreen, type ScreenPredicate } from '../../wait';
import { captureOpencodeMenus } from './capture-menus';
import { startOpencode } from './opencode';
import { opencodePermission, opencodeQuestion, opencodeReady, opencodeWorking } from './screen';

const SIZE = { width: 120, height: 40 };

/**
 * OpenCode's capture driver: drives the real TUI against the scripted chat API and keeps its
 * screens as `opencode--<name>`: the start screen and drafts, a finished and a running turn, the
 * bash permission (each button, the "Always allow" page), the question tool with one and two
 * questions (each tab and the review page), and the menus a user opens (`capture-menus.ts`).
 */
export const opencodeCaptureDriver: CaptureDriver = {
  agent: 'opencode',
  async capture({ tmux, keep }) {
    await using api = await startChatApi();
    await using oc = await startOpencode(tmux, api, SIZE);
    const keepNow = (name: string, label: CaptureLabel) => keep(oc.paneId, `opencode--${name}`, label);
    const shot = () => oc.capture({ escapes: true });
    // Every wait is on a condition with a generous bound (the machine may be loaded many times
    // over); keys that change what a dialog does (Enter, arrows, digits) are sent once, never
    // repeated on a timer: a second Enter on the permission would confirm its next page.
    const WAIT = 120_000;
    /** Presses `key` once and waits until the screen shows `until`. */
    const once = async (key: string, until: ScreenPredicate) => {
      await tmux.sendKeys(oc.paneId, key);
      return oc.waitForScreen(until, WAIT);
    };
    /** Presses `key` once and waits until the styled screen differs (a focus move changes colours only). */
    const moved = async (key: string) => {
      const before = await shot();
      await tmux.sendKeys(oc.paneId, key);
      await waitForScreen(shot, (s) => s !== before, { timeoutMs: WAIT, what: `opencode pane after ${key}` });
    };
    /** Types `text` into the empty prompt until the screen shows `sign` (keys typed while it redraws were seen lost). */
    const typed = async (text: string, sign: RegExp) => {
      for (let i = 0; ; i++) {
        await tmux.typeText(oc.paneId, text);
        if (await oc.waitForScreen(sign, 20_000).then(() => true, () => false)) return;
        if (i === 4) throw new Error(`opencode never showed ${String(sign)} after typing it 5 times:\n${await oc.capture()}`);
        await oc.press('C-u', (s) => !sign.test(s), WAIT);
      }
    };
    const version = /\b(1\.\d+\.\d+)\b/.exec(await oc.capture())?.[1] ?? 'unknown';

    await keepNow('fresh-idle', { state: 'idle', dialog: null, draft: false, note: 'start screen: logo, centred prompt with its placeholder' });
    await typed('a draft on the start screen', /a draft on the start screen/);
    await keepNow('draft-start', { state: 'idle', dialog: null, draft: true, note: 'start screen with a typed draft' });
    await oc.press('C-u', (s) => !s.includes('a draft on the start screen'), WAIT);
    await captureOpencodeMenus(tmux, oc, keepNow);

    api.script(chatReply('Hello from the scripted API. The turn is over.'));
    await oc.submit('say hello');
    await oc.waitForScreen((s) => s.includes('The turn is over.') && opencodeReady(s), WAIT);
    await keepNow('done', { state: 'idle', dialog: null, draft: false, note: 'a finished turn in the session view, sidebar-less at 120 columns' });

    api.script(chatLongTurn(30_000, 'The long turn is over now.'));
    await oc.submit('work for a while');
    await oc.waitForScreen(opencodeWorking, WAIT);
    await keepNow('working', { state: 'working', dialog: null, draft: false, note: 'a slow streamed reply: block bar and "esc interrupt"' });
    await typed('typed while it works', /typed while it works/);
    await keepNow('working-draft', { state: 'working', dialog: null, draft: true, note: 'a draft typed during a turn' });
    await oc.press('C-u', (s) => !s.includes('typed while it works'), WAIT);
    await oc.waitForScreen((s) => s.includes('The long turn is over now.') && opencodeReady(s), WAIT);

    const long = 'a longer draft that goes on and on so that the prompt box has to wrap it onto a second row and maybe a third one too';
    await typed(long, /maybe a third/);
    await keepNow('draft-wrapped', { state: 'idle', dialog: null, draft: true, note: 'a draft wrapped over rows' });
    await oc.press('C-u', (s) => !s.includes('maybe a third'), WAIT);
    await oc.press('C-u', (s) => !s.includes('a longer draft'), WAIT);

    api.script(...chatToolCall('bash', { command: 'touch made-by-bash', description: 'Create a marker file' }));
    await oc.submit('make the marker file');
    await oc.waitForScreen(opencodePermission, WAIT);
    await keepNow('permission-bash', { state: 'blocked', dialog: 'permission', draft: false, note: 'bash permission ("permission": {"bash": "ask"}), first button focused' });
    await moved('Right');
    await keepNow('permission-bash-moved', { state: 'blocked', dialog: 'permission', draft: false, note: 'the same, focus moved to "Allow always"' });
    await once('Enter', /Always allow/);
    await keepNow('permission-always', { state: 'blocked', dialog: 'permission', draft: false, note: 'the "Always allow" confirmation page: Confirm / Cancel' });
    await moved('Right');
    await once('Enter', (s) => opencodePermission(s) && !s.includes('△ Always allow'));
    await once('Enter', (s) => !opencodePermission(s));
    await oc.waitForScreen((s) => s.includes('Tool finished') && opencodeReady(s), WAIT);
    await keepNow('done-after-tool', { state: 'idle', dialog: null, draft: false, note: 'after the allowed command ran and the turn ended' });

    const questions = [{ header: 'Colour', question: 'Which colour should the collie be?', options: [{ label: 'Black', description: 'The classic coat' }, { label: 'Sable', description: 'Golden brown' }] }];
    // Esc dismisses the question and ends the turn: no tool result comes back, so no closing turn is queued.
    api.script(chatToolCall('question', { questions }, { text: 'One question first.' })[0]);
    await oc.submit('ask me something');
    await oc.waitForScreen(opencodeQuestion, WAIT);
    await keepNow('question', { state: 'blocked', dialog: 'select', draft: false, note: 'the question tool, one question, two options and "Type your own answer"' });
    await moved('Down');
    await keepNow('question-moved', { state: 'blocked', dialog: 'select', draft: false, note: 'the same, pointer on the second option' });
    await once('Escape', (s) => !opencodeQuestion(s));
    await oc.waitForScreen(opencodeReady, WAIT);
    await keepNow('question-dismissed', { state: 'idle', dialog: null, draft: false, note: 'after Esc dismissed the question' });

    // Several questions: tabs, each question's options, then a review page.
    const tabs = (s: string) => /⇆ tab\s+(?:↑↓ select\s+enter confirm|enter submit)\s+esc dismiss/u.test(s);
    api.script(...chatToolCall('question', { questions: [COLOUR_QUESTION, SIZE_QUESTION] }, { text: 'Two questions first.' }));
    await oc.submit('ask me two things');
    await oc.waitForScreen(tabs, WAIT);
    const options = (q: typeof COLOUR_QUESTION) => [...q.options.map((o) => o.label), 'Type your own answer'];
    await keepNow('questions', { state: 'blocked', dialog: 'wizard', draft: false, options: options(COLOUR_QUESTION), note: 'the question tool with two questions: tabs "Colour Size Confirm", the first open' });
    await once('2', /How big should it be\?/u);
    await keepNow('questions-second', { state: 'blocked', dialog: 'wizard', draft: false, options: options(SIZE_QUESTION), note: 'the same after 2: the second tab open' });
    await once('1', /Size: Small/u);
    await keepNow('questions-review', { state: 'blocked', dialog: 'review', draft: false, options: ['Submit', 'Dismiss'], note: 'the same after 1: the Confirm tab reviews the answers; enter submit, esc dismiss' });
    await once('Enter', (s) => !tabs(s));
    await oc.waitForScreen(opencodeReady, WAIT);

    return { version, readme: captureReadme('OpenCode', 'opencode', version, SIZE, 'the scripted chat-completions API') };
  },
};
