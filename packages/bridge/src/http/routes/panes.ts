import { Hono } from 'hono';
import { z } from 'zod';
import { ApiError, fail } from '../api-error';
import type { PaneRouteDeps } from '../route-deps';
import { cancelRoute } from './cancel';
import { sendRoutes } from './sends';

/** `POST /api/panes/:id/seen` takes an empty object; unknown fields are refused. */
const SeenBody = z.object({}).strict();

export function panesRoutes(d: Pick<PaneRouteDeps, 'pane' | 'markSeen' | 'sends' | 'knownRequest'>): Hono {
  const r = new Hono();
  sendRoutes(r, d);
  cancelRoute(r, d);

  r.get('/:id', (c) => {
    const pane = d.pane(c.req.param('id'));
    return pane ? c.json(pane) : fail(c, notFound(c.req.param('id')));
  });

  r.post('/:id/seen', async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return fail(c, new ApiError('bad_json', 'bridge: the body is not valid JSON'));
    }
    const parsed = SeenBody.safeParse(body);
    if (!parsed.success) return fail(c, new ApiError('bad_request', `bridge: seen takes {}: ${parsed.error.issues[0]?.message ?? 'bad body'}`));
    const pane = d.markSeen(c.req.param('id'));
    return pane ? c.json({ ok: true, pane }) : fail(c, notFound(c.req.param('id')));
  });

  r.all('/*', (c) => fail(c, new ApiError('method_not_allowed', `bridge: ${c.req.method} is not allowed on ${c.req.path}`)));
  return r;
}

function notFound(id: string): ApiError {
  return new ApiError('not_found', `bridge: no pane '${id.slice(0, 100)}'`);
}
