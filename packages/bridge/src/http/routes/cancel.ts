import type { Hono } from 'hono';
import { CancelRequest } from '@collie/protocol';
import { ApiError, fail } from '../api-error';
import type { PaneRouteDeps } from '../route-deps';

/**
 * `POST /api/panes/:id/sends/:request_id/cancel` with `{}`: gives up a text send still queued
 * or held. Answers `{receipt}` (`not sent: cancelled`); 404 for a send this pane never had,
 * 409 with where it stands once it is typing or settled. Editing a held send is a cancel and
 * a new send with the edited text.
 */
export function cancelRoute(r: Hono, d: Pick<PaneRouteDeps, 'sends'>): void {
  r.post('/:id/sends/:request_id/cancel', async (c) => {
    let json: unknown;
    try {
      json = await c.req.json();
    } catch {
      return fail(c, new ApiError('bad_json', 'bridge: the body is not valid JSON'));
    }
    const parsed = CancelRequest.safeParse(json);
    if (!parsed.success) return fail(c, new ApiError('bad_request', `bridge: cancel takes {}: ${parsed.error.issues[0]?.message ?? 'bad body'}`));
    const id = c.req.param('id');
    const requestId = c.req.param('request_id');
    const result = await d.sends.cancel(id, requestId);
    if (result.ok) return c.json({ receipt: result.receipt });
    if (result.code === 'not_found') return fail(c, new ApiError('not_found', `bridge: pane '${id.slice(0, 100)}' has no send '${requestId.slice(0, 100)}'`));
    return fail(c, new ApiError('conflict', `bridge: too late to cancel: ${result.receipt?.outcome ?? 'it is under way'}`));
  });
}
