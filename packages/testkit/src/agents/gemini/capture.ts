import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CaptureDriver, CaptureLabel } from '../../capture/driver';
import { captureReadme } from '../../capture/driver';
import { agentsFrom } from '../installed';
import { COLOUR_QUESTION, SIZE_QUESTION } from '../questions';
import { agentLongTurn, agentReply, agentShell, agentTool } from '../turns';
import { geminiScript, startGemini, startGeminiApi } from './gemini';
import { captureGeminiMenus } from './capture-menus';
import { geminiApproval, geminiInputReady, geminiInputText, geminiWorking } from './screen';

const SIZE = { width: 120, height: 40 };

/**
 * Gemini CLI's capture driver: drives the real CLI against the scripted Gemini API and keeps its
 * screens as `gemini--<name>`: idle and finished screens, drafts, a running turn, the shell
 * approval (pointer on each option), a running command, a file write, `ask_user` with one and
 * two questions (each tab and the review tab, answered and not), the trust dialog of a second CLI, and the
 * menus a user opens (`capture-menus.ts`).
 */
export const geminiCaptureDriver: CaptureDriver = {
  agent: 'gemini',
  async capture({ tmux, keep }) {
    await using api = await startGeminiApi();
    // Another release than the newest: let it pin its "update available" box, as users of it see.
    await using gemini = await startGemini(tmux, api, { ...SIZE, updateNotice: agentsFrom() !== null });
    const shot = (name: string, label: CaptureLabel) => keep(gemini.paneId, `gemini--${name}`, label);
    const version = await geminiVersion();
    const idle = (s: string) => geminiInputReady(s) && !geminiWorking(s);
    const squeeze = (t: string) => t.replace(/\s+/gu, '');
    const typed = async (text: string) => {
      await tmux.typeText(gemini.paneId, text);
      await gemini.waitForScreen((s) => squeeze(geminiInputText(s) ?? '').endsWith(squeeze(text).slice(-20)));
    };
    const clear = async () => {
      // Ctrl+C clears a non-empty input (twice would quit).
      await tmux.sendKeys(gemini.paneId, 'C-c');
      await gemini.waitForScreen((s) => geminiInputText(s) === '');
    };

    await gemini.waitForScreen(idle, 60_000);
    await shot('fresh-idle', { state: 'idle', dialog: null, draft: false, note: 'just started: the banner, tips, the empty input box with its placeholder' });

    await typed('fix the flaky login test');
    await shot('draft', { state: 'idle', dialog: null, draft: true, draftText: 'fix the flaky login test', note: 'a draft in the input box' });
    await clear();
    await captureGeminiMenus(tmux, gemini, shot, idle);

    api.script(agentLongTurn(10_000, 'Reading the code one module at a time and noting what each part does before changing anything at all.'));
    await gemini.submit('explain the parser');
    await gemini.waitForScreen(/esc to cancel, \d+s/u, 60_000);
    await shot('working', { state: 'working', dialog: null, draft: false, note: 'a turn running: the "Thinking… (esc to cancel, Ns)" row' });
    await gemini.waitForScreen(/✦ Reading the code one module/u, 30_000);
    await shot('working-streaming', { state: 'working', dialog: null, draft: false, note: 'the reply streaming under the running row' });
    await gemini.waitForScreen((s) => /before changing anything at all\./u.test(s) && idle(s), 30_000);
    await shot('done', { state: 'idle', dialog: null, draft: false, note: 'a finished turn' });

    await typed('also check the renderer, it wraps long lines badly and the tests do not cover it yet, which is why nobody noticed the bug for a month');
    await shot('draft-wrapped', {
      state: 'idle',
      dialog: null,
      draft: true,
      draftText: 'also check the renderer, it wraps long lines badly and the tests do not cover it yet, which is why nobody noticed the bug for a month',
      note: 'a draft wrapped over two rows',
    });
    await clear();

    api.script(...agentShell('rm -rf build', { reason: 'Clean the build output' }));
    await gemini.submit('clean the build');
    await gemini.waitForScreen(geminiApproval, 30_000);
    await shot('approval', { state: 'blocked', dialog: 'permission', draft: false, note: 'shell approval, pointer on 1; the input box is hidden' });
    await gemini.press('Down', /● 2\. Allow for this session/u);
    await shot('approval-second', { state: 'blocked', dialog: 'permission', draft: false, note: 'shell approval, pointer moved to 2' });
    await gemini.press('1', (s) => !geminiApproval(s));
    await gemini.waitForScreen((s) => s.includes('The command finished.') && idle(s), 30_000);
    await shot('done-after-command', { state: 'idle', dialog: null, draft: false, note: 'the approved command ran, the turn ended' });

    api.script(...agentShell('sleep 6', { reason: 'Wait for the server' }));
    await gemini.submit('wait for the server');
    await gemini.waitForScreen(geminiApproval, 30_000);
    await gemini.press('1', (s) => !geminiApproval(s));
    await gemini.waitForScreen((s) => /sleep 6/u.test(s) && geminiWorking(s), 10_000);
    await shot('working-command', { state: 'working', dialog: null, draft: false, note: 'an approved command running' });
    await gemini.waitForScreen((s) => s.includes('The command finished.') && idle(s), 30_000);

    api.script(agentReply('Short answer.'));
    await gemini.submit('one more');
    await gemini.waitForScreen((s) => s.includes('Short answer.') && idle(s), 30_000);
    await shot('done-short', { state: 'idle', dialog: null, draft: false, note: 'a turn answered at once' });

    // A file write asks "Apply this change?"; the ask_user tool draws "Answer Questions".
    api.script(...agentTool('write_file', { file_path: `${gemini.cwd}/NOTES.md`, content: 'Collie notes\nline two\n' }));
    await gemini.submit('write the notes');
    await gemini.waitForScreen(/Apply this change\?/u, 30_000);
    await shot('write-file', { state: 'blocked', dialog: 'permission', draft: false, options: ['Allow once', 'Allow for this session', 'Modify with external editor', 'No, suggest changes'], note: 'write_file asks "Apply this change?" under the file and its new lines; 4 options' });
    await gemini.press('1', (s) => !/Apply this change\?/u.test(s));
    await gemini.waitForScreen((s) => s.includes('The tool said') && idle(s), 30_000);
    const asking = (s: string) => /Answer Questions/u.test(s) && /Enter to select/u.test(s);
    const labels = (q: typeof COLOUR_QUESTION) => [...q.options.map((o) => o.label), 'Enter a custom value'];
    api.script(...agentTool('ask_user', { questions: [{ ...COLOUR_QUESTION, type: 'choice' }] }));
    await gemini.submit('ask me something');
    await gemini.waitForScreen(asking, 30_000);
    await shot('ask-user', { state: 'blocked', dialog: 'select', draft: false, options: labels(COLOUR_QUESTION), note: 'the ask_user tool with one question: "Answer Questions", options with descriptions, a custom value' });
    await gemini.press('1', (s) => !asking(s));
    await gemini.waitForScreen((s) => s.includes('The tool said') && idle(s), 30_000);
    api.script(...agentTool('ask_user', { questions: [{ ...COLOUR_QUESTION, type: 'choice' }, { ...SIZE_QUESTION, type: 'choice' }] }));
    await gemini.submit('ask me two things');
    await gemini.waitForScreen(asking, 30_000);
    await shot('ask-user-two', { state: 'blocked', dialog: 'wizard', draft: false, options: labels(COLOUR_QUESTION), note: 'ask_user with two questions: tabs "← □ Colour │ □ Size │ ≡ Review →" over the first' });
    await gemini.press('1', /How big should it be\?/u);
    await shot('ask-user-two-second', { state: 'blocked', dialog: 'wizard', draft: false, options: labels(SIZE_QUESTION), note: 'the same after 1: Colour answered (■), the Size tab open' });
    await gemini.press('2', /Review your answers:/u);
    await shot('ask-user-review', { state: 'blocked', dialog: 'review', draft: false, options: ['Submit', 'Cancel'], note: 'the same after 2: the Review tab lists "Colour → Black", "Size → Large"; Enter submits, Esc cancels' });
    await gemini.press('Enter', (s) => !/Review your answers:/u.test(s));
    await gemini.waitForScreen((s) => s.includes('The tool said') && idle(s), 30_000);
    api.script(...agentTool('ask_user', { questions: [{ ...COLOUR_QUESTION, type: 'choice' }, { ...SIZE_QUESTION, type: 'choice' }] }));
    await gemini.submit('ask me two things again');
    await gemini.waitForScreen(asking, 30_000);
    await gemini.press('Right', /How big should it be\?/u);
    await gemini.press('Right', /Review your answers:/u);
    await shot('ask-user-review-unanswered', { state: 'blocked', dialog: 'review', draft: false, options: ['Submit', 'Cancel'], note: 'the Review tab reached with → before any answer: "⚠ You have 2 unanswered questions", both "(not answered)"' });
    await gemini.press('Escape', (s) => !/Review your answers:/u.test(s));
    await gemini.waitForScreen(idle, 30_000);

    // Trust is asked once per folder, at start: a second CLI in a folder nobody trusted yet.
    {
      await using untrusted = await startGemini(tmux, api, { ...SIZE, trusted: false, session: 'untrusted' });
      await keep(untrusted.paneId, 'gemini--trust', { state: 'blocked', dialog: 'trust', draft: false, note: 'first start in an untrusted folder: the folder-trust dialog' });
    }

    return { version, readme: captureReadme('Gemini CLI', 'gemini', version, SIZE, 'the scripted Gemini API') };
  },
};

/** The installed CLI's version, from its package.json (its screen shows none). */
async function geminiVersion(): Promise<string> {
  const pkg = JSON.parse(await readFile(join(dirname(dirname(geminiScript())), 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}
