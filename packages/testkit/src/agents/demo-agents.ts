import type { TmuxServer } from '../tmux';
import { codexMissing, startCodex, startResponsesApi } from './codex/codex';
import { codexApproval } from './codex/screen';
import { geminiMissing, startGemini, startGeminiApi } from './gemini/gemini';
import { geminiInputReady, geminiWorking } from './gemini/screen';
import type { AgentTurnScript } from './scripted-api';

/** A pane of `collie demo` running another agent than Claude Code. */
export interface OtherAgentPane {
  paneId: string;
  role: 'codex-approval' | 'gemini-idle';
  /** How it was started, and where: a launcher for the New page runs it again. */
  argv: readonly string[];
  cwd: string;
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
 * that never runs dry. An agent whose package is not installed is skipped with a line on `log`
 * saying why. What they start is pushed onto `undo`.
 */
export async function startOtherAgents(
  tmux: TmuxServer,
  dirs: { api: string; docs: string },
  undo: Array<() => Promise<void>>,
  log: (line: string) => void,
): Promise<OtherAgentPane[]> {
  const size = { session: 'demo', width: 160, height: 45 };
  const codexWhy = codexMissing();
  const geminiWhy = geminiMissing();
  if (codexWhy) log(`collie demo: no Codex pane (${codexWhy})`);
  if (geminiWhy) log(`collie demo: no Gemini CLI pane (${geminiWhy})`);
  const codex = async (): Promise<OtherAgentPane> => {
    const api = await startResponsesApi({ fallback: approvalEveryPrompt('rm -rf ./dist') });
    undo.push(() => api.close());
    const pane = await startCodex(tmux, api, { ...size, cwd: dirs.api });
    undo.push(() => pane.kill());
    await pane.submit('Clean the dist folder.');
    await pane.waitForScreen(codexApproval, 60_000);
    return { paneId: pane.paneId, role: 'codex-approval', argv: pane.argv, cwd: pane.cwd };
  };
  const gemini = async (): Promise<OtherAgentPane> => {
    const api = await startGeminiApi({ fallback: (req) => ({ text: `Hello! You said: ${req.prompt || '(nothing)'}` }) });
    undo.push(() => api.close());
    const pane = await startGemini(tmux, api, { ...size, cwd: dirs.docs });
    undo.push(() => pane.kill());
    await pane.submit('Say hello to the phone.');
    await pane.waitForScreen((s) => s.includes('Hello! You said') && geminiInputReady(s) && !geminiWorking(s), 60_000);
    return { paneId: pane.paneId, role: 'gemini-idle', argv: pane.argv, cwd: pane.cwd };
  };
  return Promise.all([...(codexWhy ? [] : [codex()]), ...(geminiWhy ? [] : [gemini()])]);
}
