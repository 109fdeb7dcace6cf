import { ErrorBody, Snapshot } from '@collie/protocol';
import { auth } from './auth-state';

/** `GET /api/snapshot`, validated: the bridge's whole model. */
export async function fetchSnapshot(): Promise<Snapshot> {
  const response = await fetch('/api/snapshot', { headers: { accept: 'application/json' }, cache: 'no-store' });
  const body: unknown = await response.json().catch(() => null);
  if (response.status === 401) void auth.check();
  if (!response.ok) throw new Error(`snapshot: bridge answered ${response.status}${errorDetail(body)}`);
  const parsed = Snapshot.safeParse(body);
  if (!parsed.success) throw new Error(`snapshot: invalid body: ${parsed.error.message}`);
  return parsed.data;
}

/**
 * `POST /api/panes/:id/seen`: the user opened the pane, so a finished turn counts as read
 * (`done` becomes `idle`). A failure only leaves the pane marked done; it is logged, not shown.
 */
export async function markSeen(id: string): Promise<void> {
  try {
    const response = await fetch(`/api/panes/${encodeURIComponent(id)}/seen`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    if (!response.ok) {
      const body: unknown = await response.json().catch(() => null);
      console.warn(`seen: bridge answered ${response.status} for ${id}${errorDetail(body)}`);
    }
  } catch (error) {
    console.warn(`seen: could not reach the bridge for ${id}`, error);
  }
}

function errorDetail(body: unknown): string {
  const parsed = ErrorBody.safeParse(body);
  return parsed.success ? ` (${parsed.data.error.code}: ${parsed.data.error.message})` : '';
}
