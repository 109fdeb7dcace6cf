/** A scripted OpenAI chat-completions API on loopback, for the agents that speak that wire (OpenCode, pi, omp). */
export { startChatApi, type ChatApi, type ChatApiOptions, type ChatRequest, type ChatScript } from './server';
export { decodeChatRequest, contentText, type ChatRequestKind, type ChatToolResult, type DecodedChatRequest } from './request';
export type { ChatTurn, ChatToolCall } from './wire';
export { chatReply, chatLongTurn, chatToolCall } from './scripts';
