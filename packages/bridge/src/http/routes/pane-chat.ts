import { Hono } from 'hono';
import { PaneChatQuery } from '@collie/protocol';
import { ApiError, fail } from '../api-error';
import type { PaneChats } from '../../transcripts';
import { transcriptImage } from '../../transcripts/transcript-image';

/**
 * `GET /api/panes/:id/chat?before=&limit=`: a page of the pane's chat, read from its agent's transcript.
 * `GET /api/panes/:id/chat/images/:ref`: a picture that transcript carries, read from the file the
 * pane's finders located (never a path the client names).
 */
export function paneChatRoutes(chats: Pick<PaneChats, 'page'>): Hono {
  const r = new Hono();
  r.get('/:id/chat', async (c) => {
    const q = PaneChatQuery.safeParse({ before: c.req.query('before'), limit: c.req.query('limit') });
    if (!q.success) return fail(c, new ApiError('bad_request', `bridge: ${q.error.issues[0]?.path.join('.') ?? 'query'}: ${q.error.issues[0]?.message ?? 'bad query'}`));
    const id = c.req.param('id');
    const page = await chats.page(id, q.data.before === undefined ? null : Number(q.data.before), q.data.limit);
    return page ? c.json(page) : fail(c, new ApiError('not_found', `bridge: no pane '${id.slice(0, 100)}'`));
  });
  r.get('/:id/chat/images/:ref', async (c) => {
    const id = c.req.param('id');
    const page = await chats.page(id, null, 1);
    if (!page) return fail(c, new ApiError('not_found', `bridge: no pane '${id.slice(0, 100)}'`));
    if (!page.source || page.source.agent !== 'claude') return fail(c, new ApiError('not_found', 'chat: this pane’s transcript carries no pictures Collie reads'));
    try {
      const image = await transcriptImage(page.source.path, c.req.param('ref'));
      return c.body(new Uint8Array(image.bytes), 200, {
        'content-type': image.type,
        'content-disposition': 'inline',
        'cache-control': 'private, max-age=3600',
        'x-content-type-options': 'nosniff',
      });
    } catch (err) {
      return fail(c, err);
    }
  });
  return r;
}
