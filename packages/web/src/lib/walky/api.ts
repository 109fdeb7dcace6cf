import { ErrorBody, WalkyBroadcastAnswer, WalkyMessagesAnswer, WalkySendAnswer, type WalkyPhoneSend } from '@collie/protocol';
import '../csp-safe-zod';

/** What a walky call came to: the validated answer, or why there is none, in words. */
export type Got<T> = { ok: true; value: T } | { ok: false; status: number; message: string };

async function call<T>(path: string, schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }, body?: unknown): Promise<Got<T>> {
  try {
    const response = await fetch(path, {
      ...(body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }),
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      cache: 'no-store',
      signal: AbortSignal.timeout(30_000),
    });
    const json: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const err = ErrorBody.safeParse(json);
      return { ok: false, status: response.status, message: err.success ? err.data.error.message : `the bridge answered ${response.status}` };
    }
    const parsed = schema.safeParse(json);
    return parsed.success ? { ok: true, value: parsed.data } : { ok: false, status: 0, message: 'the bridge sent an answer this page does not read' };
  } catch (error) {
    return { ok: false, status: 0, message: error instanceof Error ? error.message : String(error) };
  }
}

/** `GET /api/walky/messages`: every message the log holds (newest first, bodies masked). */
export const fetchWalky = () => call('/api/walky/messages', WalkyMessagesAnswer);

/** `GET /api/walky/messages?pane=`: one pane's messages; for a member's pane on a lead (`@<member>/…`), from that member's own log. */
export const fetchPaneWalky = (paneId: string) => call(`/api/walky/messages?pane=${encodeURIComponent(paneId)}`, WalkyMessagesAnswer);

/** `POST /api/walky/send`: the operator's message to a pane, or a reply. */
export const postWalkySend = (req: WalkyPhoneSend) => call('/api/walky/send', WalkySendAnswer, req);

/** `POST /api/walky/broadcast`: to every agent pane of the chosen machine. */
export const postBroadcast = (body: string, member: string) => call('/api/walky/broadcast', WalkyBroadcastAnswer, { body, member });
