import { ChangesAnswer, ErrorBody } from '@collie/protocol';

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
