/**
 * Reading an OpenAI chat-completions request the way the scripted API needs it: whose
 * request it is and what the user said in it. Pure functions, no I/O.
 */

/**
 * `main`: a turn of the conversation (it offers tools). `side`: a call with no tools, such as
 * OpenCode's title generator ("You are a title generator"). `probe`: anything not a POST.
 */
export type ChatRequestKind = 'main' | 'side' | 'probe';

/** A tool result sent back after the last assistant message. */
export interface ChatToolResult {
  callId: string;
  text: string;
}

/** The parts of a request body the scripted API reads. Everything else stays in `body`. */
export interface DecodedChatRequest {
  kind: ChatRequestKind;
  model: string | undefined;
  stream: boolean;
  /** Text of the last user message. */
  prompt: string;
  /** Text of every user message in order, empty ones left out. */
  userMessages: string[];
  /** Tool results after the last assistant message. */
  toolResults: ChatToolResult[];
  /** Names of the tools the request offers. */
  toolNames: string[];
  /** Text of the system messages, joined. */
  system: string;
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text of a message's `content`: a string, or the text parts of an array. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => (isRec(p) && typeof p.text === 'string' ? p.text : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/**
 * Decodes a request body; any JSON value yields a decoding, never a throw.
 *
 * @example
 * decodeChatRequest({ messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'bash' } }] })
 * // { kind: 'main', prompt: 'hi', userMessages: ['hi'], toolNames: ['bash'], … }
 */
export function decodeChatRequest(body: unknown): DecodedChatRequest {
  const b = isRec(body) ? body : {};
  const messages = (Array.isArray(b.messages) ? b.messages : []).filter(isRec);
  const tools = (Array.isArray(b.tools) ? b.tools : []).filter(isRec);
  const toolNames = tools.flatMap((t) => (isRec(t.function) && typeof t.function.name === 'string' ? [t.function.name] : []));
  const users = messages.filter((m) => m.role === 'user').map((m) => contentText(m.content));
  const lastAssistant = messages.map((m) => m.role).lastIndexOf('assistant');
  const toolResults = messages
    .slice(lastAssistant + 1)
    .filter((m) => m.role === 'tool')
    .map((m) => ({ callId: typeof m.tool_call_id === 'string' ? m.tool_call_id : '', text: contentText(m.content) }));
  return {
    kind: toolNames.length > 0 ? 'main' : 'side',
    model: typeof b.model === 'string' ? b.model : undefined,
    stream: b.stream === true,
    prompt: users.at(-1) ?? '',
    userMessages: users.filter((u) => u !== ''),
    toolResults,
    toolNames,
    system: messages
      .filter((m) => m.role === 'system' || m.role === 'developer')
      .map((m) => contentText(m.content))
      .join('\n'),
  };
}
