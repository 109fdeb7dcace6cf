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
