import { basename } from 'node:path';
import { Hono, type Context } from 'hono';
import { MAX_SEND_CHARS, SendFilesRequest, UploadId, type Pane, type SendReceipt } from '@collie/protocol';
import { ApiError, fail } from '../../http/api-error';
import { body } from '../../http/routes/sends';
import { AGENTS } from '../../harness/agents';
import { composeAttachments } from './compose';
import { readCapped } from './read-body';
import type { UploadStore } from './store';

export interface UploadRouteDeps {
  store: UploadStore;
  pane: (id: string) => Pane | undefined;
  send: (paneId: string, text: string, requestId: string, summary?: string) => Promise<SendReceipt>;
}

/** The one write under `/api` whose body is raw bytes, not JSON: the gates let it through to its own checks. */
export const isRawUpload = (method: string, path: string): boolean => method === 'POST' && path === '/api/uploads';

/**
 * `POST /api/uploads?name=…` stores a file; `POST /api/panes/:id/send-files` sends a message
 * whose text starts with the attachments' paths, through the send protocol (same receipts).
 * `GET /api/uploads/:id` gives a stored picture back (a thumbnail, a picture in a pane's Chat):
 * by id only, so nothing outside the uploads dir can be named; images only, typed by their bytes.
 */
export function uploadRoutes(d: UploadRouteDeps): Hono {
  const r = new Hono();
  r.post('/uploads', async (c) => {
    if (!/^application\/octet-stream\s*(;|$)/i.test(c.req.header('content-type') ?? '')) {
      return fail(c, new ApiError('unsupported_media_type', 'uploads: send the file as application/octet-stream'));
    }
    const name = c.req.query('name');
    if (name === undefined) return fail(c, new ApiError('bad_request', 'uploads: the file name is missing (?name=)'));
    const bytes = await readCapped(c.req.raw);
    return c.json({ upload: await d.store.save(bytes, name) });
  });
  r.get('/uploads/:id', async (c) => {
    const id = UploadId.safeParse(c.req.param('id'));
    if (!id.success) return fail(c, new ApiError('not_found', 'uploads: no such upload'));
    const file = await d.store.read(id.data);
    if (!file.type.startsWith('image/')) return fail(c, new ApiError('not_found', `uploads: '${id.data}' is not a picture`));
    return c.body(new Uint8Array(file.bytes), 200, {
      'content-type': file.type,
      'content-disposition': 'inline',
      'cache-control': 'private, max-age=3600',
      'x-content-type-options': 'nosniff',
    });
  });
  r.post('/panes/:id/send-files', async (c: Context) => {
    const b = await body(c, SendFilesRequest);
    if (b instanceof ApiError) return fail(c, b);
    const id = c.req.param('id') ?? '';
    const pane = d.pane(id);
    if (!pane) return fail(c, new ApiError('not_found', `bridge: no pane '${id.slice(0, 100)}'`));
    const paths: string[] = [];
    for (const u of b.attachments) paths.push(await d.store.pathOf(u));
    // The receipt names the files, never the bridge's paths.
    const names = paths.map((p) => basename(p).replace(/^u_[0-9a-f]{16}-/, '')).join(', ');
    const agent = AGENTS[pane.harness];
    const text = composeAttachments(paths, b.text, agent.attachment?.bind(agent));
    if (text.length > MAX_SEND_CHARS) return fail(c, new ApiError('bad_request', `uploads: the message with its paths is over ${MAX_SEND_CHARS} characters`));
    return c.json({ receipt: await d.send(id, text, b.request_id, b.text.trim() === '' ? names : `${names} · ${b.text}`) });
  });
  return r;
}
