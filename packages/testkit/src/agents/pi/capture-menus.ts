import type { CaptureLabel } from '../../capture/driver';
import type { TmuxServer } from '../../tmux';
import type { ChatApi } from '../openai-chat/server';
import { chatToolCall } from '../openai-chat/scripts';
import type { AgentPane } from '../pane';
import { piReady } from './screen';

type Shot = (name: string, label: CaptureLabel) => Promise<void>;
const WAIT = 60_000;

/**
 * The menus a user opens in pi, each kept as a `menu` over the idle editor and closed with one
 * Esc: the slash-command popup under the editor, and the `/model` picker.
 */
export async function capturePiMenus(tmux: TmuxServer, pi: AgentPane, shot: Shot): Promise<void> {
  const POPUP = /^\s*(?:→ | {2})model\s{2,}Select model/mu;
  await tmux.typeText(pi.paneId, '/');
  await pi.waitForScreen(POPUP, WAIT);
  await shot('slash-popup', { state: 'idle', dialog: 'menu', draft: false, note: 'the slash-command popup under the editor: a menu, its "/" no draft' });
  await tmux.sendKeys(pi.paneId, 'Escape');
  await pi.waitForScreen((s) => !POPUP.test(s), WAIT);
  await pi.press('C-u', (s) => piReady(s) && !/^\s*\/\s*$/mu.test(s), WAIT);
  await tmux.typeText(pi.paneId, '/model');
  await pi.waitForScreen(POPUP, WAIT);
  await tmux.sendKeys(pi.paneId, 'Enter');
  // The picker lists the one model; the footer names it too.
  const PICKER = (s: string) => (s.match(/fake-coder/gu) ?? []).length >= 2 && !/^\/model\s*$/mu.test(s);
  const picker = await pi.waitForScreen(PICKER, WAIT);
  await shot('model-picker', { state: 'idle', dialog: 'menu', draft: false, note: `/model: the model picker in the editor's place${picker.includes('Search') ? ', with its search field' : ''}` });
  await tmux.sendKeys(pi.paneId, 'Escape');
  await pi.waitForScreen(piReady, WAIT);
}

/** pi's shipped `question.ts` example asking one question with options (its own custom UI), pointer on each. */
export async function capturePiQuestion(api: ChatApi, pi: AgentPane, shot: Shot): Promise<void> {
  const question = {
    question: 'Which database should the checkout service use?',
    options: [
      { label: 'PostgreSQL', description: 'The shared cluster' },
      { label: 'SQLite', description: 'A file beside the service' },
    ],
  };
  api.script(...chatToolCall('question', question, { text: 'One question first.' }));
  await pi.submit('pick the database with me');
  const asked = (s: string) => s.includes('Which database should the checkout service use?') && /Esc to cancel/u.test(s);
  await pi.waitForScreen(asked, WAIT);
  const options = ['PostgreSQL', 'SQLite', 'Type something.'];
  await shot('question', { state: 'blocked', dialog: 'select', draft: false, options, note: 'the question.ts example: a question, options with descriptions and "Type something."; Working... shows above' });
  await pi.press('Down', /> 2\. SQLite/u);
  await shot('question-moved', { state: 'blocked', dialog: 'select', draft: false, options, note: 'the same, pointer on the second option' });
  await pi.press('Enter', (s) => !asked(s));
  await pi.waitForScreen((s) => s.includes('Tool finished') && piReady(s), WAIT);
  await shot('done-after-question', { state: 'idle', dialog: null, draft: false, note: 'the question answered (SQLite), the turn ended' });
}

/** pi's shipped `confirm-destructive.ts` example: `/new` asks "Clear session?" through `ctx.ui.confirm`; Esc keeps the session. */
export async function capturePiConfirm(tmux: TmuxServer, pi: AgentPane, shot: Shot): Promise<void> {
  await tmux.typeText(pi.paneId, '/new');
  await pi.waitForScreen(/^\/new\s*$/mu, WAIT);
  await tmux.sendKeys(pi.paneId, 'Enter');
  const asked = (s: string) => /Clear session\?/u.test(s) && /↑↓ navigate/u.test(s);
  await pi.waitForScreen(asked, WAIT);
  await shot('confirm', { state: 'blocked', dialog: 'select', draft: false, note: 'the confirm-destructive.ts example: /new asks "Clear session?" through ctx.ui.confirm' });
  await tmux.sendKeys(pi.paneId, 'Escape');
  await pi.waitForScreen((s) => !asked(s) && piReady(s), WAIT);
}
