import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import {
  DurableAnswerRequest,
  DurableButtonRequest,
  DurableCloseRequest,
  DurableMessageRequest,
  DurableReopenRequest,
  DurableStarterRequest,
  DurableStopRequest,
  type CallPath,
} from '@collie/protocol';
import type { DurableService } from '../../durable';
import { ApiError, fail } from '../api-error';
import { body } from './sends';

/**
 * `/api/durable/…`: the phone's taps on durable agents (each with its request id, answered
 * `{result}` with the outcome), the closed list, and reading one conversation.
 */
export function durableRoutes(d: Pick<DurableService, 'tap' | 'closed' | 'read'>): Hono {
  const r = new Hono();
  const call =
    <S extends z.ZodType<{ agent: string; request_id: string }>>(schema: S, path: CallPath) =>
    async (c: Context) => {
      const b = await body(c, schema);
      if (b instanceof ApiError) return fail(c, b);
      const { agent, request_id, ...rest } = b;
      return c.json({ result: await d.tap(agent, path, { ...rest, requestId: request_id }) });
    };
  r.post('/answer', call(DurableAnswerRequest, '/answer'));
  r.post('/message', call(DurableMessageRequest, '/message'));
  r.post('/stop', call(DurableStopRequest, '/stop'));
  r.post('/button', call(DurableButtonRequest, '/button'));
  r.post('/starter', call(DurableStarterRequest, '/starter'));
  r.post('/reopen', call(DurableReopenRequest, '/reopen'));
  r.post('/close', call(DurableCloseRequest, '/close'));
  r.get('/closed', async (c) => {
    const agent = c.req.query('agent') ?? '';
    const cursor = c.req.query('cursor') ?? null;
    if (!agent || agent.length > 100 || (cursor !== null && cursor.length > 200)) return fail(c, new ApiError('bad_request', 'bridge: ?agent= (and an optional cursor) please'));
    return c.json(await d.closed(agent, cursor));
  });
  r.get('/conversation', async (c) => {
    const agent = c.req.query('agent') ?? '';
    const id = c.req.query('id') ?? '';
    if (!agent || !id || agent.length > 100 || id.length > 200) return fail(c, new ApiError('bad_request', 'bridge: ?agent=&id= please'));
    const got = await d.read(agent, id);
    return got ? c.json(got) : fail(c, new ApiError('not_found', `bridge: the durable agent '${agent}' cannot show '${id.slice(0, 100)}' now`));
  });
  return r;
}
