import { type ActionResult, readActionAnswer } from './action-result';
import { type PaneRequest, requestBody, requestPath } from './pane-request';

/**
 * The bridge answers with the receipt once its first decision is made: held at once, or typed
 * and checked on an idle pane within seconds. Longer means the call is lost.
 */
const CALL_TIMEOUT_MS = 30_000;

/**
 * `POST /api/panes/:id/{send,keys,answer}` with the request's body. Never throws: a network
 * failure or a timeout is an `unsure` result, since the request may have reached the bridge.
 */
export async function postPaneRequest(paneId: string, request: PaneRequest, requestId: string): Promise<ActionResult> {
  let response: Response;
  try {
    response = await fetch(`/api/panes/${encodeURIComponent(paneId)}/${requestPath(request)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(requestBody(request, requestId)),
      cache: 'no-store',
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch (error) {
    console.warn(`actions: ${requestPath(request)} to ${paneId} got no answer`, error);
    return { kind: 'unsure', detail: error instanceof Error ? error.message : String(error) };
  }
  const body: unknown = await response.json().catch(() => null);
  const result = readActionAnswer(response.status, body);
  if (result.kind !== 'receipt') console.warn(`actions: ${requestPath(request)} to ${paneId}: ${response.status}`, body);
  return result;
}
