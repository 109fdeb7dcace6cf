import { ClosedListResult, ConversationReadResult, TapResult } from '@collie/protocol';

/** `POST /api/durable/<path>`; never throws: no answer is `unsure` (the same request id retries). */
export async function postDurable(path: string, body: object): Promise<TapResult> {
  try {
    const res = await fetch(`/api/durable/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(20_000) });
    const json: unknown = await res.json();
    const parsed = TapResult.safeParse((json as { result?: unknown } | null)?.result);
    if (parsed.success) return parsed.data;
    const message = (json as { error?: { message?: string } } | null)?.error?.message ?? null;
    return { outcome: 'refused', reason: message, conversationId: null };
  } catch {
    return { outcome: 'unsure', reason: null, conversationId: null };
  }
}

export async function fetchClosed(agent: string, cursor: string | null): Promise<ClosedListResult | null> {
  try {
    const q = new URLSearchParams({ agent, ...(cursor ? { cursor } : {}) });
    const parsed = ClosedListResult.safeParse(await (await fetch(`/api/durable/closed?${q.toString()}`)).json());
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export type Read = { state: 'loading' } | { state: 'failed' } | { state: 'ok'; got: ConversationReadResult };

/** `GET /api/durable/conversation`: one conversation to read (a closed one read-only); never throws. */
export async function readConversation(agent: string, id: string): Promise<Read> {
  try {
    const q = new URLSearchParams({ agent, id });
    const parsed = ConversationReadResult.safeParse(await (await fetch(`/api/durable/conversation?${q.toString()}`)).json());
    return parsed.success ? { state: 'ok', got: parsed.data } : { state: 'failed' };
  } catch {
    return { state: 'failed' };
  }
}
