import type { CaptureDriver, CaptureLabel } from '../../capture/driver';
import { captureReadme } from '../../capture/driver';
import { chatLongTurn, chatToolCall } from '../openai-chat/scripts';
import { startChatApi } from '../openai-chat/server';
import { COLOUR_QUESTION, SIZE_QUESTION } from '../questions';
import { ompCommand } from './config';
import { startOmp } from './omp';
import { ompApproval, ompReady, ompWorking } from './screen';

const SIZE = { width: 120, height: 40 };

/**
 * omp's capture driver: drives the real omp 18 TUI (under Bun, `tools.approvalMode: write`)
 * against the scripted chat API and keeps its screens as `omp--<name>`: the fresh composer, a
 * draft, a running turn, a finished turn, the bash approval (pointer on each option), the turn
 * after it was approved, the `ask` tool with one question (pointer on each option), with two
 * questions (each tab and the Submit tab's review), and with one multi-select question.
 */
export const ompCaptureDriver: CaptureDriver = {
  agent: 'omp',
  async capture({ tmux, keep }) {
    const cmd = ompCommand();
    if ('missing' in cmd) throw new Error(cmd.missing);
    await using api = await startChatApi();
    await using omp = await startOmp(tmux, api, SIZE);
    const shot = (name: string, label: CaptureLabel) => keep(omp.paneId, `omp--${name}`, label);

    await shot('fresh-idle', { state: 'idle', dialog: null, draft: false, note: 'just started: the welcome box, a tip, the status row over an empty composer' });
    await tmux.typeText(omp.paneId, 'fix the flaky login test');
    await omp.waitForScreen(/╰─ fix the flaky login test/u);
    await shot('draft', { state: 'idle', dialog: null, draft: true, draftText: 'fix the flaky login test', note: 'a draft on the composer\'s bottom edge' });
    await omp.press('C-u', (s) => !s.includes('fix the flaky login test'));

    api.script(chatLongTurn(10_000, 'Reading the code one module at a time before changing anything.'));
    await omp.submit('think for a while');
    await omp.waitForScreen(ompWorking, 60_000);
    await shot('working', { state: 'working', dialog: null, draft: false, note: 'a slow streamed reply: "⎋ Working…" above the composer' });
    await omp.waitForScreen((s) => s.includes('before changing anything.') && ompReady(s), 60_000);
    await shot('done', { state: 'idle', dialog: null, draft: false, note: 'a finished turn' });

    api.script(...chatToolCall('bash', { command: 'rm -rf build' }));
    await omp.submit('clean the build');
    await omp.waitForScreen(ompApproval, 60_000);
    await shot('approval', { state: 'blocked', dialog: 'permission', draft: false, options: ['Approve', 'Deny'], note: 'tools.approvalMode write: "Allow tool: bash", the command, ❯ Approve / Deny' });
    await omp.press('Down', /❯ Deny/u);
    await shot('approval-second', { state: 'blocked', dialog: 'permission', draft: false, options: ['Approve', 'Deny'], note: 'the same, pointer moved to Deny' });
    await omp.press('Up', /❯ Approve/u);
    await omp.press('Enter', (s) => !ompApproval(s));
    await omp.waitForScreen((s) => s.includes('Tool finished') && ompReady(s), 60_000);
    await shot('done-after-tool', { state: 'idle', dialog: null, draft: false, note: 'after Approve: the command ran, the turn ended' });

    // The ask tool: options behind ○ / ☐ and a pointer, no digits; Enter picks, Space ticks.
    // Each of these keys acts again if it lands twice: pressed once, then a generous wait.
    const once = async (key: string, until: (s: string) => boolean) => {
      await tmux.sendKeys(omp.paneId, key);
      return omp.waitForScreen(until, 60_000);
    };
    const shows = (re: RegExp) => (s: string) => re.test(s);
    const asked = (s: string) => /Enter select · n note|Space toggle · Enter submit|Enter submit · ↑\/↓ scroll/u.test(s);
    // Each answered ask ends its turn with one more "Tool finished" line.
    const turns = (s: string) => s.split('Tool finished:').length - 1;
    const finished = async () => {
      const before = turns(await omp.capture());
      return (s: string) => turns(s) > before && ompReady(s);
    };
    const choices = (q: typeof COLOUR_QUESTION) => [...q.options.map((o) => o.label), 'Other (type your own)'];
    api.script(...chatToolCall('ask', { questions: [{ id: 'colour', ...COLOUR_QUESTION }] }, { text: 'One question first.' }));
    await omp.submit('ask me something');
    await omp.waitForScreen(asked, 60_000);
    await shot('ask', { state: 'blocked', dialog: 'select', draft: false, options: choices(COLOUR_QUESTION), note: 'the ask tool, one question: ○ options with their descriptions, "Other (type your own)", pointer on the first' });
    await once('Down', shows(/❯ ○ Sable/u));
    await shot('ask-moved', { state: 'blocked', dialog: 'select', draft: false, options: choices(COLOUR_QUESTION), note: 'the same, pointer moved to the second option' });
    const answered = await finished();
    await once('Enter', (s) => !asked(s));
    await omp.waitForScreen(answered, 60_000);
    await shot('done-after-ask', { state: 'idle', dialog: null, draft: false, note: 'after the answer: the question folded into the transcript, the turn ended' });

    api.script(...chatToolCall('ask', { questions: [{ id: 'colour', ...COLOUR_QUESTION }, { id: 'size', ...SIZE_QUESTION }] }, { text: 'Two questions first.' }));
    await omp.submit('ask me two things');
    await omp.waitForScreen(asked, 60_000);
    await shot('ask-two', { state: 'blocked', dialog: 'wizard', draft: false, options: choices(COLOUR_QUESTION), note: 'two questions: a tab row "Colour Size Submit", the first open' });
    await once('Enter', shows(/❯ ○ Small/u));
    await shot('ask-two-second', { state: 'blocked', dialog: 'wizard', draft: false, options: choices(SIZE_QUESTION), note: 'the same after Enter: the second tab open' });
    await once('Enter', shows(/Review answers/u));
    await shot('ask-review', { state: 'blocked', dialog: 'review', draft: false, options: ['Submit'], note: 'the Submit tab: "Review answers", Enter submits' });
    const reviewed = await finished();
    await once('Enter', (s) => !asked(s));
    await omp.waitForScreen(reviewed, 60_000);

    api.script(...chatToolCall('ask', { questions: [{ id: 'colour', multi: true, ...COLOUR_QUESTION }] }, { text: 'Pick any.' }));
    await omp.submit('ask me to pick several');
    await omp.waitForScreen(asked, 60_000);
    await shot('ask-multi', { state: 'blocked', dialog: 'multiselect', draft: false, options: choices(COLOUR_QUESTION), note: 'one multi-select question: ☐ boxes, "Space toggle · Enter submit"' });
    await once('Space', shows(/☑/u));
    await shot('ask-multi-ticked', { state: 'blocked', dialog: 'multiselect', draft: false, options: choices(COLOUR_QUESTION), note: 'the same, the first box ticked with Space' });
    // A lone multi-select question is submitted by Enter (no review page).
    const picked = await finished();
    await once('Enter', (s) => !asked(s));
    await omp.waitForScreen(picked, 60_000);

    return { version: cmd.version, readme: captureReadme('omp', 'omp', cmd.version, SIZE, 'the scripted chat-completions API (under Bun)') };
  },
};
