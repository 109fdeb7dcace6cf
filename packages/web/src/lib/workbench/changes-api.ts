import { ChangesAnswer, ChangesWaitAnswer, ErrorBody } from '@collie/protocol';

export type ChangesResult = { readonly ok: true; readonly changes: ChangesAnswer } | { readonly ok: false; readonly message: string };

/** `GET /api/panes/:id/changes?page=N`, validated; never throws. */
export async function fetchChanges(paneId: string, page: number): Promise<ChangesResult> {
  try {
    const response = await fetch(`/api/panes/${encodeURIComponent(paneId)}/changes?page=${page}`, { headers: { accept: 'application/json' }, cache: 'no-store' });
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const error = ErrorBody.safeParse(body);
      return { ok: false, message: error.success ? error.data.error.message.replace(/^changes: /, '') : `the bridge answered ${response.status}` };
    }
    const parsed = ChangesAnswer.safeParse(body);
    return parsed.success ? { ok: true, changes: parsed.data } : { ok: false, message: 'the bridge answered with changes this page cannot read' };
  } catch (error) {
    return { ok: false, message: `no answer from the bridge (${error instanceof Error ? error.message : String(error)})` };
  }
}

/**
 * `GET /api/panes/:id/changes/wait`: true once a file of the repository changed, false after
 * the bridge's wait (about 25 s) passed quietly, null when the call failed (the page stops
 * waiting; Refresh still works).
 */
export async function waitForChanges(paneId: string, signal: AbortSignal): Promise<boolean | null> {
  try {
    const response = await fetch(`/api/panes/${encodeURIComponent(paneId)}/changes/wait`, { headers: { accept: 'application/json' }, cache: 'no-store', signal });
    const parsed = ChangesWaitAnswer.safeParse(await response.json().catch(() => null));
    return response.ok && parsed.success ? parsed.data.changed : null;
  } catch {
    return null;
  }
}
