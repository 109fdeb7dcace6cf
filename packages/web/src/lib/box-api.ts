import { type BoxAction, type BoxRequest } from '@collie/protocol';
import { type ActionResult, readActionAnswer } from './action-result';

/**
 * `POST /api/panes/:id/box`: send (Enter) or clear the text the send `sendId` left in the
 * pane's input box. Never throws: no answer is an `unsure` result.
 */
export async function postBoxAction(paneId: string, action: BoxAction, sendId: string, requestId: string): Promise<ActionResult> {
  const body: BoxRequest = { action, send_id: sendId, request_id: requestId };
  try {
    const response = await fetch(`/api/panes/${encodeURIComponent(paneId)}/box`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      cache: 'no-store',
      signal: AbortSignal.timeout(30_000),
    });
    return readActionAnswer(response.status, await response.json().catch(() => null));
  } catch (error) {
    return { kind: 'unsure', detail: error instanceof Error ? error.message : String(error) };
  }
}
