import { ErrorBody, PaneActionAnswer, type Pane } from '@collie/protocol';
import { HARNESS_WORDS } from '../words';

/** The question a close asks first: it names what runs in the pane and where. Pure. */
export function closeQuestion(pane: Pick<Pane, 'harness' | 'command' | 'cwd' | 'windowName'>): string {
  const what = pane.harness === 'shell' ? `${pane.command || 'a shell'}` : `${HARNESS_WORDS[pane.harness]} (${pane.command})`;
  return `Close this pane? It runs ${what} in ${pane.cwd || 'an unknown folder'}, window “${pane.windowName}”.`;
}

/** The second question, for an agent mid-turn: closing loses the turn's work. */
export const MID_TURN_WARNING = 'The agent is working on a turn: closing it now stops it mid-turn. Tap Close anyway to close it.';

export type ManageResult = { readonly ok: true } | { readonly ok: false; readonly code: string; readonly message: string };

/** `POST /api/panes/:id/rename` or `/close`; never throws. */
export async function postManage(paneId: string, verb: 'rename' | 'close', body: unknown): Promise<ManageResult> {
  try {
    const response = await fetch(`/api/panes/${encodeURIComponent(paneId)}/${verb}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      cache: 'no-store',
    });
    const json: unknown = await response.json().catch(() => null);
    if (response.ok && PaneActionAnswer.safeParse(json).success) return { ok: true };
    const error = ErrorBody.safeParse(json);
    return error.success ? { ok: false, code: error.data.error.code, message: error.data.error.message.replace(/^(bridge|panes): /, '') } : { ok: false, code: `http_${response.status}`, message: `the bridge answered ${response.status}` };
  } catch (error) {
    return { ok: false, code: 'network', message: `no answer from the bridge (${error instanceof Error ? error.message : String(error)})` };
  }
}
