/**
 * Ready turn scripts for the scripted APIs of the other agents (Codex, Gemini CLI): the same
 * situations as Claude's scenarios, in wire-neutral turns.
 */
import type { AgentTurnScript } from './scripted-api';

/**
 * Answers with `text` at once.
 *
 * @example
 * api.script(agentReply('Hello.'));
 */
export function agentReply(text: string): AgentTurnScript {
  return () => ({ text });
}

/**
 * Streams `text` over `ms`, so the agent shows a running turn all that time.
 *
 * @example
 * api.script(agentLongTurn(8_000, 'Still thinking.'));
 */
export function agentLongTurn(ms: number, text: string): AgentTurnScript {
  return () => ({ text, durationMs: ms });
}

/**
 * A call of the agent's shell tool that raises its approval prompt, then (a second turn, once
 * the result comes back) a closing line saying whether it ran. `delayMs` holds the call back
 * that long, so the agent shows a working turn first; `closingMs` streams the closing line
 * that long.
 *
 * @example
 * api.script(...agentShell('rm -rf build', { reason: 'Clean the build output' }));
 */
export function agentShell(command: string, opts: { reason?: string; delayMs?: number; closing?: string; closingMs?: number } = {}): AgentTurnScript[] {
  return [
    () => ({ shell: { command, reason: opts.reason }, durationMs: opts.delayMs }),
    (req) => {
      const out = req.toolOutputs.at(-1);
      return { text: opts.closing ?? (out === undefined ? 'The command did not run.' : 'The command finished.'), durationMs: opts.closingMs };
    },
  ];
}

/**
 * A call of one of the agent's own tools by name (Gemini CLI's `write_file` or `ask_user`,
 * Codex's `request_user_input`), so that the agent draws that tool's dialog; then (a second
 * turn, once the result comes back) `closing`, or a line quoting the tool's output.
 *
 * @example
 * api.script(...agentTool('ask_user', { questions: [{ question: 'Which?', header: 'Pick', type: 'choice', options: [...] }] }));
 */
export function agentTool(name: string, args: Record<string, unknown>, opts: { delayMs?: number; closing?: string } = {}): AgentTurnScript[] {
  return [
    () => ({ tool: { name, args }, durationMs: opts.delayMs }),
    (req) => ({ text: opts.closing ?? `The tool said: ${req.toolOutputs.at(-1) ?? 'nothing'}` }),
  ];
}
