import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CaptureDriver, CaptureLabel } from '../../capture/driver';
import { captureReadme } from '../../capture/driver';
import { chatLongTurn, chatReply, chatToolCall } from '../openai-chat/scripts';
import { startChatApi } from '../openai-chat/server';
import { piPackageDir } from './config';
import { startPi } from './pi';
import { capturePiConfirm, capturePiMenus, capturePiQuestion } from './capture-menus';
import { piPermission, piReady, piWorking } from './screen';

const SIZE = { width: 120, height: 40 };

/**
 * pi's capture driver: drives the real pi TUI (with its shipped permission-gate and question examples) against
 * the scripted chat API and keeps its screens as `pi--<name>`: the fresh editor, drafts, a running
 * turn (and a draft typed during it), a finished turn, the permission gate (pointer on each
 * option), the turn after the gate was answered, the menus a user opens, the question extension and a
 * confirm (`capture-menus.ts`).
 */
export const piCaptureDriver: CaptureDriver = {
  agent: 'pi',
  async capture({ tmux, keep }) {
    await using api = await startChatApi();
    await using pi = await startPi(tmux, api, { ...SIZE, extensions: ['permission-gate.ts', 'question.ts', 'confirm-destructive.ts'] });
    const shot = (name: string, label: CaptureLabel) => keep(pi.paneId, `pi--${name}`, label);
    const squeeze = (t: string) => t.replace(/\s+/gu, '');
    const typed = async (text: string) => {
      await tmux.typeText(pi.paneId, text);
      await pi.waitForScreen((s) => squeeze(s).includes(squeeze(text).slice(-20)));
    };
    const cleared = async (text: string) => {
      await pi.press('C-u', (s) => !squeeze(s).includes(squeeze(text).slice(0, 12)));
    };
    const version = (JSON.parse(await readFile(join(piPackageDir(), 'package.json'), 'utf8')) as { version: string }).version;

    await shot('fresh-idle', { state: 'idle', dialog: null, draft: false, note: 'just started: offline notes, banner, the extensions list, the tmux extended-keys warning, an empty editor (rules touching)' });
    await typed('fix the flaky login test');
    await shot('draft', { state: 'idle', dialog: null, draft: true, draftText: 'fix the flaky login test', note: 'a draft in the editor' });
    await cleared('fix the flaky login test');
    await capturePiMenus(tmux, pi, shot);

    api.script(chatLongTurn(10_000, 'Reading the code one module at a time before changing anything.'));
    await pi.submit('think for a while');
    await pi.waitForScreen(piWorking, 60_000);
    await shot('working', { state: 'working', dialog: null, draft: false, note: 'a slow streamed reply: the braille spinner and Working... above the editor' });
    await typed('typed while it works');
    await shot('working-draft', { state: 'working', dialog: null, draft: true, draftText: 'typed while it works', note: 'a draft typed during a turn' });
    await cleared('typed while it works');
    await pi.waitForScreen((s) => s.includes('before changing anything.') && piReady(s), 60_000);
    await shot('done', { state: 'idle', dialog: null, draft: false, note: 'a finished turn, token stats in the footer' });

    const long = 'also check the renderer, it wraps long lines badly and the tests do not cover it yet, which is why nobody noticed the bug for a month';
    await typed(long);
    await shot('draft-wrapped', { state: 'idle', dialog: null, draft: true, draftText: long, note: 'a draft wrapped over two rows of the editor' });
    await cleared(long);

    api.script(...chatToolCall('bash', { command: 'rm -rf build' }));
    await pi.submit('clean the build');
    await pi.waitForScreen(piPermission, 60_000);
    await shot('permission-gate', { state: 'blocked', dialog: 'permission', draft: false, options: ['Yes', 'No'], note: 'the shipped permission-gate.ts example asking before rm -rf; the spinner still runs above' });
    await pi.press('Down', /→ No/u);
    await shot('permission-gate-moved', { state: 'blocked', dialog: 'permission', draft: false, options: ['Yes', 'No'], note: 'the same, pointer moved to No' });
    await pi.press('Up', /→ Yes/u);
    await pi.press('Enter', (s) => !piPermission(s));
    await pi.waitForScreen((s) => s.includes('Tool finished') && piReady(s), 60_000);
    await shot('done-after-tool', { state: 'idle', dialog: null, draft: false, note: 'after Yes: the command ran and the turn ended' });

    api.script(chatToolCall('bash', { command: 'rm -rf dist' })[0], chatReply('Understood, I will leave it.'));
    await pi.submit('clean dist');
    await pi.waitForScreen(piPermission, 60_000);
    await pi.press('Escape', (s) => !piPermission(s));
    await pi.waitForScreen((s) => s.includes('I will leave it.') && piReady(s), 60_000);
    await shot('permission-refused', { state: 'idle', dialog: null, draft: false, note: 'the gate answered with Esc: "Blocked by user", the model answered, the turn ended' });

    await capturePiQuestion(api, pi, shot);
    await capturePiConfirm(tmux, pi, shot);

    return { version, readme: captureReadme('pi', 'pi', version, SIZE, "the scripted chat-completions API (pi's permission-gate, question and confirm-destructive examples loaded)") };
  },
};
