import type { Hono, Context } from 'hono';
import type { z } from 'zod';
import { AnswerRequest, BoxRequest, KeysRequest, SendRequest, type ErrorCode, type SendReceipt } from '@collie/protocol';
import { ApiError, fail } from '../api-error';
import type { PaneRouteDeps } from '../route-deps';

/**
 * Parse a JSON body with a protocol schema; the first issue, in words, on failure, with the
 * code `codeOf` gives for its field (`bad_request` by default).
 */
export async function body<S extends z.ZodType>(c: Context, schema: S, codeOf: (field: PropertyKey | undefined) => ErrorCode = () => 'bad_request'): Promise<z.infer<S> | ApiError> {
  let json: unknown;
  try {
    json = await c.req.json();
  } catch {
    return new ApiError('bad_json', 'bridge: the body is not valid JSON');
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return new ApiError(codeOf(issue?.path[0]), `bridge: ${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'does not match'}`);
}

/**
 * The send protocol's routes on `/api/panes/:id/…`. Each answers `{receipt}` as it stands
 * when the first decision is made; later changes arrive as `send.updated` events.
 */
export function sendRoutes(r: Hono, d: Pick<PaneRouteDeps, 'pane' | 'sends' | 'knownRequest'>): void {
  const handle =
    <S extends z.ZodType>(schema: S, run: (id: string, b: z.infer<S>) => Promise<SendReceipt>, codeOf?: (field: PropertyKey | undefined) => ErrorCode) =>
    async (c: Context) => {
      const b = await body(c, schema, codeOf);
      if (b instanceof ApiError) return fail(c, b);
      const id = c.req.param('id') ?? '';
      // A request already made is answered from its receipt (or 409) even once its pane is
      // gone: a phone that lost the answer asks again and learns how the send ended.
      const known = d.knownRequest?.((b as { request_id: string }).request_id) === true;
      if (!d.pane(id) && !known) return fail(c, new ApiError('not_found', `bridge: no pane '${id.slice(0, 100)}'`));
      return c.json({ receipt: await run(id, b) });
    };
  // A send that waits (`at`, `when`): a time that is not one answers `bad_time`.
  const timeCode = (field: PropertyKey | undefined): ErrorCode => (field === 'at' ? 'bad_time' : 'bad_request');
  r.post('/:id/send', handle(SendRequest, (id, b) => d.sends.send(id, b.text, b.request_id, { at: b.at, when: b.when }), timeCode));
  r.post('/:id/keys', handle(KeysRequest, (id, b) => d.sends.keys(id, b.keys, b.request_id)));
  r.post('/:id/answer', handle(AnswerRequest, (id, b) => d.sends.answer(id, b)));
  r.post('/:id/box', handle(BoxRequest, (id, b) => d.sends.box(id, b)));
}
