import type { CaptureDriver, CaptureLabel } from '../../capture/driver';
import { captureReadme } from '../../capture/driver';
import { chatLongTurn, chatToolCall } from '../openai-chat/scripts';
import { startChatApi } from '../openai-chat/server';
import { ompCommand } from './config';
import { startOmp } from './omp';
import { ompApproval, ompReady, ompWorking } from './screen';

const SIZE = { width: 120, height: 40 };

/**
 * omp's capture driver: drives the real omp 18 TUI (under Bun, `tools.approvalMode: write`)
 * against the scripted chat API and keeps its screens as `omp--<name>`: the fresh composer, a
 * draft, a running turn, a finished turn, the bash approval (pointer on each option), the turn
 * after it was approved.
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

    return { version: cmd.version, readme: captureReadme('omp', 'omp', cmd.version, SIZE, 'the scripted chat-completions API (under Bun)') };
  },
};
