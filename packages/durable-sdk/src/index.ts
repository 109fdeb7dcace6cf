/**
 * The Collie durable agent SDK: an agent program with no terminal attaches to Collie by serving
 * wire v1 (docs/wire-v1.md) on a unix socket or an HTTP URL. See README.md.
 */
export { DurableAgent, Refusal, type AgentOptions, type Calls, type StarterSpec } from './agent';
export { Conversation, type ButtonSpec, type ItemHandle, type Stable, type ToolHandle } from './conversation';
export { Ask, type AskResult, type QuestionSpec } from './ask';
export { serve, type ListenOn, type Listening } from './serve';
export { checkAnswer } from './check-answer';
/** What an agent keeps of a closed conversation (the example desk stores them). */
export type { ClosedConversation } from '@collie/protocol';
