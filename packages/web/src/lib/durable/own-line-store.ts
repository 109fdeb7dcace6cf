import { GONE_MS, type OwnLine } from './own-lines';

/**
 * Your own lines of one conversation kept in the browser (localStorage), so they outlive
 * leaving the conversation and a reload for the page's 10 minutes. A line still on its way
 * when the page went cannot learn its answer: it comes back as "Sending, not confirmed", and
 * Send again retries with the same request id. Storage can be missing or refuse writes.
 */
const key = (agent: string, conversationId: string) => `collie.durable.own.${agent}\n${conversationId}`;

export function loadOwnLines(agent: string, conversationId: string, now = Date.now()): OwnLine[] {
  try {
    const raw: unknown = JSON.parse(window.localStorage.getItem(key(agent, conversationId)) ?? '[]');
    if (!Array.isArray(raw)) return [];
    return raw
      .filter((l): l is OwnLine => typeof l === 'object' && l !== null && typeof (l as OwnLine).requestId === 'string' && typeof (l as OwnLine).text === 'string' && typeof (l as OwnLine).at === 'number')
      .filter((l) => now - l.at <= GONE_MS)
      .map((l) => ({ ...l, after: l.after ?? null, reason: l.reason ?? null, state: l.state === 'sending' ? 'unsure' : l.state }));
  } catch {
    return [];
  }
}

export function saveOwnLines(agent: string, conversationId: string, lines: readonly OwnLine[], now = Date.now()): void {
  try {
    const kept = lines.filter((l) => now - l.at <= GONE_MS);
    if (kept.length === 0) window.localStorage.removeItem(key(agent, conversationId));
    else window.localStorage.setItem(key(agent, conversationId), JSON.stringify(kept));
  } catch {
    // Not kept past this page: the lines still show while it stays open.
  }
}
