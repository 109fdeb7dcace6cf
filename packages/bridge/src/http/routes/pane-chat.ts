import { Hono } from 'hono';
import { PaneChatQuery } from '@collie/protocol';
import { ApiError, fail } from '../api-error';
import type { PaneChats } from '../../transcripts';

/** `GET /api/panes/:id/chat?before=&limit=`: a page of the pane's chat, read from its agent's transcript. */
export function paneChatRoutes(chats: Pick<PaneChats, 'page'>): Hono {
  const r = new Hono();
  r.get('/:id/chat', async (c) => {
    const q = PaneChatQuery.safeParse({ before: c.req.query('before'), limit: c.req.query('limit') });
    if (!q.success) return fail(c, new ApiError('bad_request', `bridge: ${q.error.issues[0]?.path.join('.') ?? 'query'}: ${q.error.issues[0]?.message ?? 'bad query'}`));
    const id = c.req.param('id');
    const page = await chats.page(id, q.data.before === undefined ? null : Number(q.data.before), q.data.limit);
    return page ? c.json(page) : fail(c, new ApiError('not_found', `bridge: no pane '${id.slice(0, 100)}'`));
  });
  return r;
}
