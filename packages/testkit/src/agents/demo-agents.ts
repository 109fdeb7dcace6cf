import type { TmuxServer } from '../tmux';
import { startCodex, startResponsesApi } from './codex/codex';
import { codexApproval } from './codex/screen';
import { startGemini, startGeminiApi } from './gemini/gemini';
import { geminiInputReady, geminiWorking } from './gemini/screen';
import type { AgentTurnScript } from './scripted-api';

/** A pane of `collie demo` running another agent than Claude Code. */
export interface OtherAgentPane {
  paneId: string;
  role: 'codex-approval' | 'gemini-idle';
}

/** Every new prompt asks to run `command`; its result gets a closing line. */
function approvalEveryPrompt(command: string): AgentTurnScript {
  return (req) => {
    const last = (req.body as { input?: Array<{ type?: string }> } | null)?.input?.at(-1);
    if (last?.type === 'function_call_output') return { text: 'Done: the dist folder is clean.' };
    return { text: 'I need to clear the old build first.', shell: { command, reason: 'Remove the stale build output' } };
  };
}

/**
 * Starts, in session `demo` of `tmux`, a real Codex waiting on a command approval (in `dirs.api`)
 * and a real Gemini CLI idle after a reply (in `dirs.docs`), each against its own scripted API
 * that never runs dry. What they start is pushed onto `undo`.
 */
export async function startOtherAgents(tmux: TmuxServer, dirs: { api: string; docs: string }, undo: Array<() => Promise<void>>): Promise<OtherAgentPane[]> {
  const codexApi = await startResponsesApi({ fallback: approvalEveryPrompt('rm -rf ./dist') });
  undo.push(() => codexApi.close());
  const geminiApi = await startGeminiApi({ fallback: (req) => ({ text: `Hello! You said: ${req.prompt || '(nothing)'}` }) });
  undo.push(() => geminiApi.close());
  const size = { session: 'demo', width: 160, height: 45 };
  const [codex, gemini] = await Promise.all([startCodex(tmux, codexApi, { ...size, cwd: dirs.api }), startGemini(tmux, geminiApi, { ...size, cwd: dirs.docs })]);
  undo.push(() => codex.kill(), () => gemini.kill());
  await Promise.all([codex.submit('Clean the dist folder.'), gemini.submit('Say hello to the phone.')]);
  await Promise.all([
    codex.waitForScreen(codexApproval, 60_000),
    gemini.waitForScreen((s) => s.includes('Hello! You said') && geminiInputReady(s) && !geminiWorking(s), 60_000),
  ]);
  return [
    { paneId: codex.paneId, role: 'codex-approval' },
    { paneId: gemini.paneId, role: 'gemini-idle' },
  ];
}
