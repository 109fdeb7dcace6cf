import { type ActionResult, readActionAnswer } from './action-result';

/**
 * `POST /api/panes/:id/sends/:request_id/cancel`: takes back a send still queued or held.
 * Never throws; a 409 (already typing or settled) comes back as `refused` with the bridge's words.
 */
export async function postCancel(paneId: string, requestId: string): Promise<ActionResult> {
  try {
    const response = await fetch(`/api/panes/${encodeURIComponent(paneId)}/sends/${encodeURIComponent(requestId)}/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{}',
      cache: 'no-store',
      signal: AbortSignal.timeout(15_000),
    });
    const body: unknown = await response.json().catch(() => null);
    return readActionAnswer(response.status, body);
  } catch (error) {
    return { kind: 'unsure', detail: error instanceof Error ? error.message : String(error) };
  }
}
