import type { Hono, Context } from 'hono';
import type { z } from 'zod';
import { AnswerRequest, BoxRequest, KeysRequest, SendRequest, type SendReceipt } from '@collie/protocol';
import { ApiError, fail } from '../api-error';
import type { PaneRouteDeps } from '../route-deps';

/** Parse a JSON body with a protocol schema; the first issue, in words, on failure. */
export async function body<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S> | ApiError> {
  let json: unknown;
  try {
    json = await c.req.json();
  } catch {
    return new ApiError('bad_json', 'bridge: the body is not valid JSON');
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return new ApiError('bad_request', `bridge: ${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'does not match'}`);
}

/**
 * The send protocol's routes on `/api/panes/:id/…`. Each answers `{receipt}` as it stands
 * when the first decision is made; later changes arrive as `send.updated` events.
 */
export function sendRoutes(r: Hono, d: Pick<PaneRouteDeps, 'pane' | 'sends' | 'knownRequest'>): void {
  const handle =
    <S extends z.ZodType>(schema: S, run: (id: string, b: z.infer<S>) => Promise<SendReceipt>) =>
    async (c: Context) => {
      const b = await body(c, schema);
      if (b instanceof ApiError) return fail(c, b);
      const id = c.req.param('id') ?? '';
      // A request already made is answered from its receipt (or 409) even once its pane is
      // gone: a phone that lost the answer asks again and learns how the send ended.
      const known = d.knownRequest?.((b as { request_id: string }).request_id) === true;
      if (!d.pane(id) && !known) return fail(c, new ApiError('not_found', `bridge: no pane '${id.slice(0, 100)}'`));
      return c.json({ receipt: await run(id, b) });
    };
  r.post('/:id/send', handle(SendRequest, (id, b) => d.sends.send(id, b.text, b.request_id)));
  r.post('/:id/keys', handle(KeysRequest, (id, b) => d.sends.keys(id, b.keys, b.request_id)));
  r.post('/:id/answer', handle(AnswerRequest, (id, b) => d.sends.answer(id, b)));
  r.post('/:id/box', handle(BoxRequest, (id, b) => d.sends.box(id, b)));
}
