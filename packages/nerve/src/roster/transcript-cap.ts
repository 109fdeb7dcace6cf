/**
 * `transcript_item_max_bytes` (spec "Configuration"): a cap on each stored or streamed tool
 * input or result in a transcript. Applied where a transcript line leaves the roster, with the
 * value read at that moment, so a config change applies without a restart.
 */
import type { AgentTranscriptEvent } from '@collie/protocol';

const CAPPED_KINDS: ReadonlySet<AgentTranscriptEvent['kind']> = new Set(['tool_call', 'tool_result']);

/** The longest prefix of `text` that is at most `maxBytes` of UTF-8, never splitting a character. */
export function utf8Prefix(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  const bytes = Buffer.from(text, 'utf8').subarray(0, maxBytes);
  // A cut inside a multi-byte character decodes to U+FFFD at the end: drop it.
  return bytes.toString('utf8').replace(/\uFFFD+$/, '');
}

/** Each value of a tool call's or result's payload kept to `maxBytes` (objects as their JSON). */
export function capTranscriptItem(event: AgentTranscriptEvent, maxBytes: number): AgentTranscriptEvent {
  if (!CAPPED_KINDS.has(event.kind)) return event;
  let changed = false;
  const payload: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event.payload)) {
    const text = typeof value === 'string' ? value : value !== null && typeof value === 'object' ? JSON.stringify(value) : null;
    if (text === null || Buffer.byteLength(text, 'utf8') <= maxBytes) {
      payload[key] = value;
      continue;
    }
    changed = true;
    const total = Buffer.byteLength(text, 'utf8');
    payload[key] = `${utf8Prefix(text, maxBytes)}… [${total - maxBytes} more bytes not kept]`;
  }
  if (!changed) return event;
  return { ...event, payload: { ...payload, truncated: true } };
}
