import type { CaptureDriver, CaptureLabel } from '../../capture/driver';
import { captureReadme } from '../../capture/driver';
import { agentRequire } from '../installed';
import { COLOUR_QUESTION, SIZE_QUESTION } from '../questions';
import { agentLongTurn, agentReply, agentShell, agentTool } from '../turns';
import { startCodex, startResponsesApi } from './codex';
import { captureCodexMenus } from './capture-menus';
import { codexApproval, codexInputReady, codexInputText, codexWorking } from './screen';

const SIZE = { width: 120, height: 40 };

/**
 * Codex's capture driver: drives the real Codex TUI against the scripted Responses API and keeps
 * its screens as `codex--<name>`: the trust dialog, the fresh and finished idle screens, drafts,
 * a running turn (status row and streaming text), a running command, the command approval
 * (pointer on each option), an interrupted turn, the menus a user opens (`capture-menus.ts`), `request_user_input` with one and two questions.
 */
export const codexCaptureDriver: CaptureDriver = {
  agent: 'codex',
  async capture({ tmux, keep }) {
    await using api = await startResponsesApi();
    await using codex = await startCodex(tmux, api, { ...SIZE, trusted: false, features: { default_mode_request_user_input: true } });
    const shot = (name: string, label: CaptureLabel) => keep(codex.paneId, `codex--${name}`, label);
    // The splash names no version once the trust dialog was answered: the package says it.
    const version = (agentRequire()('@openai/codex/package.json') as { version: string }).version;
    const idle = (s: string) => codexInputReady(s) && !codexWorking(s);
    const typed = async (text: string) => {
      await tmux.typeText(codex.paneId, text);
      await codex.waitForScreen((s) => (codexInputText(s) ?? '').replace(/\s+/gu, '').endsWith(text.replace(/\s+/gu, '').slice(-20)));
    };
    const clear = async (text: string) => {
      await tmux.sendKeys(codex.paneId, 'C-u');
      await codex.waitForScreen((s) => !(codexInputText(s) ?? '').replace(/\s+/gu, '').includes(text.replace(/\s+/gu, '').slice(0, 12)));
    };

    await codex.waitForScreen(/Trust this folder\?|Do you trust/u);
    await shot('trust', { state: 'blocked', dialog: 'trust', draft: false, note: 'first start in an untrusted folder: the folder-trust dialog' });
    await codex.press('Enter', idle, 20_000);
    // The first frames after trust may be a cleared screen: wait for the splash and the composer.
    await codex.waitForScreen((s) => idle(s) && /OpenAI Codex/u.test(s) && /^› \S/mu.test(s), 20_000);
    await shot('fresh-idle', { state: 'idle', dialog: null, draft: false, note: 'just started: the logo splash, the empty composer with its example prompt' });

    await typed('fix the flaky login test');
    await shot('draft', { state: 'idle', dialog: null, draft: true, draftText: 'fix the flaky login test', note: 'a draft in the composer' });
    await clear('fix the flaky login test');
    await typed('/');
    await codex.waitForScreen(/\/model|\/review|\/status/u);
    await shot('slash-popup', { state: 'idle', dialog: 'menu', draft: false, note: 'the slash-command popup under the composer: a menu, its "/" no draft' });
    await tmux.sendKeys(codex.paneId, 'BSpace');
    await codex.waitForScreen((s) => !/^› \/\s*$/mu.test(s));
    await captureCodexMenus(tmux, codex, shot, idle);

    api.script(agentLongTurn(10_000, 'Reading the code one module at a time and noting what each part does before changing anything at all.'));
    await codex.submit('explain the parser');
    await codex.waitForScreen(/Working \(\d+s/u);
    await shot('working', { state: 'working', dialog: null, draft: false, note: 'a turn waiting on the model: the "Working (Ns • esc to interrupt)" status row' });
    await codex.waitForScreen(/• Reading the code one module/u, 20_000);
    await shot('working-streaming', { state: 'working', dialog: null, draft: false, note: 'the reply streaming: the status row is gone, only the title spinner shows work' });
    // 0.171 ends a turn with `Worked for 8s • 17:14`; older releases with the time alone.
    await codex.waitForScreen((s) => /Worked for|^\s+\d{1,2}:\d{2}\s*$/mu.test(s) && idle(s), 30_000);
    await shot('done', { state: 'idle', dialog: null, draft: false, note: 'a finished turn: the reply and the "Worked for Ns" line' });

    await typed('also check the renderer, it wraps long lines badly and the tests do not cover it yet');
    await shot('draft-after-turn', { state: 'idle', dialog: null, draft: true, draftText: 'also check the renderer, it wraps long lines badly and the tests do not cover it yet', note: 'a draft under a finished turn' });
    await clear('also check the renderer');

    api.script(...agentShell('rm -rf build', { reason: 'Clean the build output' }));
    await codex.submit('clean the build');
    await codex.waitForScreen(codexApproval, 20_000);
    await shot('approval', { state: 'blocked', dialog: 'permission', draft: false, note: 'command approval outside the sandbox, pointer on 1' });
    await codex.press('Down', /› 2\. Yes, and don't ask again/u);
    await shot('approval-second', { state: 'blocked', dialog: 'permission', draft: false, note: 'command approval, pointer moved to 2' });
    await codex.press('Up', /› 1\. Yes, proceed/u);
    await codex.press('y', (s) => !codexApproval(s));
    await codex.waitForScreen((s) => s.includes('The command finished.') && idle(s), 20_000);
    await shot('done-after-command', { state: 'idle', dialog: null, draft: false, note: 'the approved command ran, the turn ended' });

    api.script(...agentShell('sleep 6', { reason: 'Wait for the server' }));
    await codex.submit('wait for the server');
    await codex.waitForScreen(codexApproval, 20_000);
    await codex.press('y', (s) => !codexApproval(s));
    await codex.waitForScreen(/Running sleep 6/u, 10_000);
    await shot('working-command', { state: 'working', dialog: null, draft: false, note: 'an approved command running' });
    await codex.waitForScreen((s) => s.includes('The command finished.') && idle(s), 20_000);

    // Esc ends the turn: no tool result comes back, so no closing turn is queued.
    api.script(agentShell('rm -rf dist', { reason: 'Clean the dist folder' })[0]!);
    await codex.submit('clean dist');
    await codex.waitForScreen(codexApproval, 20_000);
    await codex.press('Escape', (s) => !codexApproval(s));
    await codex.waitForScreen(idle, 20_000);
    await shot('approval-declined', { state: 'idle', dialog: null, draft: false, note: 'approval answered with esc: the turn ends, Codex waits for what to do instead' });

    api.script(agentLongTurn(20_000, 'This answer will be interrupted long before it ends, so most of it never shows.'));
    await codex.submit('start something long');
    await codex.waitForScreen(/• This answer/u, 20_000);
    await codex.press('Escape', (s) => idle(s) && !/• This answer will be interrupted long before it ends, so most of it never shows\.\s*$/mu.test(s), 10_000);
    await codex.waitForScreen((s) => idle(s) && /› start something long[\s\S]*■ /u.test(s), 10_000);
    await shot('interrupted', { state: 'idle', dialog: null, draft: false, note: 'a streaming turn interrupted with esc' });

    api.script(agentReply('Short answer.'));
    await codex.submit('one more');
    await codex.waitForScreen((s) => s.includes('Short answer.') && idle(s), 20_000);
    await shot('done-short', { state: 'idle', dialog: null, draft: false, note: 'a turn answered at once: "Worked for <1s"' });

    // The question tool, offered outside Plan mode by `default_mode_request_user_input`.
    const asked = (s: string) => /enter to submit (?:answer|all)/u.test(s);
    const ask = (q: typeof COLOUR_QUESTION, id: string) => ({ id, header: q.header, question: q.question, options: q.options.map((o, i) => (i === 0 ? { ...o, label: `${o.label} (Recommended)` } : o)) });
    api.script(...agentTool('request_user_input', { questions: [ask(COLOUR_QUESTION, 'colour')] }));
    await codex.submit('ask me something');
    await codex.waitForScreen(asked, 20_000);
    await shot('question', { state: 'blocked', dialog: 'select', draft: false, options: ['Black (Recommended)', 'Sable', 'None of the above'], note: 'request_user_input ([features] default_mode_request_user_input): "Question 1/1", options with descriptions' });
    await codex.press('2', (s) => !asked(s));
    await codex.waitForScreen((s) => s.includes('The tool said') && idle(s), 20_000);
    api.script(...agentTool('request_user_input', { questions: [ask(COLOUR_QUESTION, 'colour'), ask(SIZE_QUESTION, 'size')] }));
    await codex.submit('ask me two things');
    await codex.waitForScreen(asked, 20_000);
    await shot('questions', { state: 'blocked', dialog: 'wizard', draft: false, options: ['Black (Recommended)', 'Sable', 'None of the above'], note: 'request_user_input with two questions: "Question 1/2"' });
    await codex.press('2', /Question 2\/2/u);
    await codex.press('1', (s) => !asked(s));
    await codex.waitForScreen(idle, 20_000);

    return { version, readme: captureReadme('Codex', 'codex', version, SIZE, 'the scripted Responses API') };
  },
};
