/**
 * Nerve's REST API (docs/nerve-api.md). Every body is parsed with its zod schema; every failure
 * is a {@link NerveError} answered as `{error: {code, message}}`; nothing answers 5xx on input.
 */
import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import {
  AgentId,
  AgentStopBody,
  CreateSessionBody,
  PatchSessionBody,
  QueueOrderBody,
  SendMessageBody,
  StopBody,
  hostAllowed,
  originAllowed,
  type NerveErrorCode,
} from '@collie/protocol';
import type { Gateway } from '../gateway/gateway';
import type { Session } from '../session/session';
import { checkCredential } from './credential';
import { NerveError } from './errors';

/** Request bodies are small commands. */
export const MAX_BODY = 256 * 1024;

export interface AppDeps {
  gateway: Gateway;
  hosts(): ReadonlySet<string>;
  /** The bearer token every route needs (`<state_dir>/api.json`). */
  token: string;
}

async function body<S extends z.ZodType>(c: Context, schema: S, empty: unknown = undefined): Promise<z.infer<S>> {
  const text = await c.req.text();
  if (text.length > MAX_BODY) throw new NerveError('payload_too_large', `nerve: bodies are at most ${MAX_BODY} bytes`);
  let raw: unknown = empty;
  if (text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch {
      throw new NerveError('bad_json', 'nerve: the body is not JSON');
    }
  }
  if (raw === undefined) throw new NerveError('bad_request', 'nerve: this route needs a JSON body');
  const r = schema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new NerveError('bad_request', `nerve: ${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`);
  }
  return r.data;
}

export function createApp(d: AppDeps): Hono {
  const app = new Hono();
  const fail = (c: Context, e: NerveError) => c.json(e.body(), e.status as 400);

  app.onError((err, c) => (err instanceof NerveError ? fail(c, err) : fail(c, new NerveError('internal', `nerve: ${err.message}`))));
  app.notFound((c) => fail(c, new NerveError('not_found', `nerve: no route ${c.req.method} ${c.req.path}`)));

  app.use('*', async (c, next) => {
    if (!hostAllowed(c.req.header('host'), d.hosts())) return fail(c, new NerveError('forbidden_host', `nerve: Host '${c.req.header('host') ?? ''}' is not allowed`));
    if (!originAllowed(c.req.header('origin'), c.req.header('sec-fetch-site'), c.req.header('host'))) {
      return fail(c, new NerveError('forbidden_origin', 'nerve: requests from another origin are refused'));
    }
    const cred = checkCredential(c.req.header('authorization'), d.token);
    if (!cred.ok) return fail(c, new NerveError('unauthorized', cred.message));
    await next();
  });

  const session = (c: Context): Session => {
    const s = d.gateway.sessions.get(c.req.param('id') ?? '');
    if (!s) throw new NerveError('not_found', `nerve: no session ${c.req.param('id') ?? ''}`);
    return s;
  };
  const refuse = (code: NerveErrorCode, message: string, live?: string[]) => new NerveError(code, message, live);

  app.get('/api/health', (c) => c.json({ ok: true, sessions: d.gateway.sessions.size }));
  app.get('/api/sessions', (c) => c.json({ sessions: [...d.gateway.sessions.values()].map((s) => s.info()) }));
  app.post('/api/sessions', async (c) => {
    const b = await body(c, CreateSessionBody, {});
    return c.json(d.gateway.create(b.title, b.model).info(), 201);
  });
  app.get('/api/sessions/:id', (c) => c.json(session(c).info()));
  app.patch('/api/sessions/:id', async (c) => {
    const s = session(c);
    const b = await body(c, PatchSessionBody);
    if (b.model !== undefined) {
      const r = s.setModel(b.model);
      if (!r.ok) throw refuse('live_background_agents', 'nerve: a model switch waits until the background agents finish', r.live);
    }
    if (b.title !== undefined) s.setTitle(b.title);
    return c.json(s.info());
  });
  app.delete('/api/sessions/:id', (c) => {
    session(c);
    d.gateway.delete(c.req.param('id'));
    return c.json({ deleted: true });
  });
  app.post('/api/sessions/:id/archive', (c) => {
    const force = c.req.query('force');
    if (force !== undefined && force !== 'true' && force !== 'false') throw refuse('bad_request', 'nerve: force is true or false');
    const r = session(c).archive(force === 'true');
    if (!r.ok) throw refuse('live_background_agents', 'nerve: skipped: background agents running (archive with ?force=true)', r.live);
    return c.json({ archived: true });
  });
  app.post('/api/sessions/:id/messages', async (c) => {
    const s = session(c);
    const b = await body(c, SendMessageBody);
    const r = s.send({ text: b.text, origin: b.origin ?? 'api', channel: b.channel ?? null, sender: b.sender ?? null, ...(b.client_msg_id ? { clientMsgId: b.client_msg_id } : {}) });
    return c.json(r, r.outcome === 'duplicate' ? 200 : 202);
  });
  app.post('/api/sessions/:id/stop', async (c) => {
    const s = session(c);
    const b = await body(c, StopBody, {});
    return c.json(await s.stop(b.scope, b.requested_by ?? 'api', b.include_shells ?? true));
  });
  app.get('/api/sessions/:id/agents', (c) => c.json({ agents: session(c).roster.list() }));
  const agentId = (c: Context): string => {
    const r = AgentId.safeParse(c.req.param('agent_id'));
    if (!r.success) throw refuse('bad_request', `nerve: ${r.error.issues[0]!.message}`);
    return r.data;
  };
  app.get('/api/sessions/:id/agents/:agent_id', (c) => {
    const a = session(c).roster.get(agentId(c));
    if (!a) throw refuse('not_found', `nerve: no agent ${agentId(c)}`);
    return c.json(a);
  });
  app.get('/api/sessions/:id/agents/:agent_id/transcript', (c) => {
    const s = session(c);
    const id = agentId(c);
    if (!s.roster.get(id)) throw refuse('not_found', `nerve: no agent ${id}`);
    const after = c.req.query('after');
    const n = after === undefined ? -1 : Number(after);
    if (!Number.isInteger(n) || n < -1) throw refuse('bad_request', 'nerve: after is a whole number');
    d.gateway.flush();
    return c.json({ events: d.gateway.store.transcript(id, n) });
  });
  app.post('/api/sessions/:id/agents/:agent_id/stop', async (c) => {
    const s = session(c);
    const id = agentId(c);
    const b = await body(c, AgentStopBody, {});
    const stopping = await s.stopAgent(id, b.requested_by ?? 'api');
    if (!stopping) throw refuse('not_found', `nerve: no agent ${id}`);
    return c.json({ stopping });
  });
  app.get('/api/sessions/:id/queue', (c) => c.json({ queue: session(c).queue.list() }));
  app.delete('/api/sessions/:id/queue/:queue_id', (c) => {
    const r = session(c).cancelQueued(c.req.param('queue_id'), c.req.header('x-nerve-sender') ?? null);
    if (!r.ok) throw refuse(r.code, r.code === 'not_found' ? 'nerve: no such queued message' : 'nerve: only its sender can cancel a queued message');
    return c.json({ text: r.text });
  });
  app.put('/api/sessions/:id/queue/order', async (c) => {
    const s = session(c);
    const b = await body(c, QueueOrderBody);
    const r = s.reorderQueue(b.order);
    if (!r.ok) throw refuse('bad_request', `nerve: ${r.message}`);
    return c.json({ queue: s.queue.list() });
  });
  return app;
}
