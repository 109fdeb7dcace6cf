/**
 * Ready turn scripts for the scripted chat-completions API: a reply, a slow reply, and a
 * call of the agent's shell tool followed by a closing text on its result.
 */
import type { ChatScript } from './server';

/**
 * Answers with `text` at once.
 *
 * @example
 * api.script(chatReply('Hello from the scripted API.'));
 */
export function chatReply(text: string): ChatScript {
  return () => ({ text });
}

/**
 * Streams `text` slowly over `ms`, so the agent shows a working turn all that time.
 *
 * @example
 * api.script(chatLongTurn(5_000, 'Still thinking about it.'));
 */
export function chatLongTurn(ms: number, text: string): ChatScript {
  return () => ({ text, durationMs: ms });
}

/**
 * Two scripts: a call of tool `name` with `args` (after a line of text), then, once the tool
 * result comes back, a closing text quoting its first line.
 *
 * @example
 * api.script(...chatToolCall('bash', { command: 'touch marker', description: 'Make a file' }));
 */
export function chatToolCall(name: string, args: Record<string, unknown>, opts: { text?: string } = {}): [ChatScript, ChatScript] {
  return [
    () => ({ text: opts.text ?? 'I will run a command.', toolCalls: [{ name, arguments: args }] }),
    (req) => {
      const result = req.toolResults[0]?.text ?? '';
      const first = result.split('\n').find((l) => l.trim() !== '') ?? 'no output';
      return { text: req.toolResults.length > 0 ? `Tool finished: ${first.slice(0, 80)}` : 'No tool result came back.' };
    },
  ];
}
