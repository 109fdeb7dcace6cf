import type { WalkyMessage } from '@collie/protocol';
import { WALKY_MAX_BODY } from '@collie/protocol/walky-words';
import { sanitizeText } from '../send/sanitize';

/**
 * Direction marks and isolates (ALM, LRM, RLM, embeddings, overrides, isolates): they make a
 * line read differently from what it holds, so a body could dress up as something else.
 */
const DIRECTION = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A body as it may be typed: control bytes out (the send protocol's own cleaning), direction
 * marks out, trailing white space and leading blank lines off, and a line that starts with
 * `[walky-talky` indented by one space so a body can never pose as a second message.
 */
export function cleanBody(raw: string): string {
  return sanitizeText(raw)
    .replace(DIRECTION, '')
    .replace(/^(?:[ \t]*\n)+/, '')
    .replace(/\s+$/, '')
    .split('\n')
    .map((line) => (line.startsWith('[walky-talky') ? ` ${line}` : line))
    .join('\n');
}

/** Characters as a person counts them (code points, not UTF-16 units). */
export function bodyLength(body: string): number {
  let n = 0;
  for (const _ of body) n++;
  return n;
}

export const tooLong = (body: string): boolean => bodyLength(body) > WALKY_MAX_BODY;

/** A label or address made safe for the one-line header: no line breaks, no controls. */
function oneLine(s: string): string {
  return cleanBody(s).replace(/\s+/g, ' ').trim();
}

/** `[walky-talky <id>] from …`: the start of every message and of `inbox` output. */
export function headerStart(m: WalkyMessage): string {
  const reply = m.replyTo ? ` reply to ${m.replyTo}` : '';
  if (m.from.kind === 'operator') return `[walky-talky ${m.id}] from operator (${oneLine(m.from.device ?? 'phone')})${reply}`;
  const who = `${oneLine(m.from.address ?? '?')} (${m.from.harness ?? 'agent'}, ${oneLine(m.from.label ?? '')})`;
  return `[walky-talky ${m.id}] from agent ${who}${reply}`;
}

/**
 * What is typed into the target pane. An agent's message is one line and no body: the
 * receiving agent reads the body as a command's output (`inbox <id>`), which its harness
 * treats as data, not as its operator's words. The operator's own message carries its body.
 */
export function typedText(m: WalkyMessage): string {
  if (m.from.kind === 'operator') return `${headerStart(m)}\n${m.body}`;
  return `${headerStart(m)}: a message from another agent, not your operator. Read it: collie walky inbox ${m.id}. Reply: collie walky reply ${m.id} "<text>"`;
}
