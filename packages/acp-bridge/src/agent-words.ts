import { Refusal } from '@collie/durable-sdk';
import { LIMITS } from '@collie/protocol';
import type * as acp from '@agentclientprotocol/sdk';

export const STOP_NOTICE: Partial<Record<acp.StopReason, string>> = {
  max_tokens: 'The agent stopped: it reached its token limit.',
  max_turn_requests: 'The agent stopped: it reached its limit of model requests for one turn.',
  refusal: 'The agent refused to go on.',
};

/**
 * A turn the agent ended without one update. The Claude Code adapter 0.23 does this to the first
 * prompt after a Stop (agentclientprotocol/claude-agent-acp#551): the model gets the line, and
 * its answer comes with the next prompt.
 */
export const SILENT_TURN = 'The agent ended this turn without a word. If you expected an answer, send another line: some agents answer it then.';

/**
 * A failed request to the agent as the phone's refusal, in words: "The ACP agent did not answer
 * session/new within 60 s." or "The ACP agent refused session/new: <its message>".
 */
export const refusal =
  (method: string) =>
  (err: unknown): never => {
    if (err instanceof Refusal) throw err;
    const msg = err instanceof Error ? err.message : String(err);
    const words = msg.startsWith('the ACP agent ') ? `The ACP agent ${msg.slice('the ACP agent '.length)}` : `The ACP agent refused ${method}: ${msg}`;
    throw new Refusal(`${words.replace(/[.\s]+$/u, '').slice(0, 300)}.`);
  };

/** A session id as the conversation's id when it fits the wire, else a fresh one. */
export const fits = (id: string): string | undefined => (id.length > 0 && id.length <= LIMITS.id ? id : undefined);
