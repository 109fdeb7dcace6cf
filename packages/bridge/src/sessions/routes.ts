import { Hono } from 'hono';
import { SessionAgent, SessionResumeBody, SessionsQuery, type StoppedSession, type StoppedSessions } from '@collie/protocol';
import { ApiError, fail } from '../http/api-error';
import { body } from '../http/routes/sends';
import type { SessionActions } from './actions';
import type { CrewSessions } from './crew-sessions';
import type { Sessions } from './index';

export interface SessionRouteDeps {
  sessions: Sessions;
  /** This machine's list, read and resume (actions.ts). */
  actions: SessionActions;
  /** On a lead: every machine's sessions, a member's read and resumed on it (crew-sessions.ts); else null. */
  crew: () => CrewSessions | null;
}

const issue = (e: { issues: Array<{ path: PropertyKey[]; message: string }> }) => `bridge: ${e.issues[0]?.path.join('.') || 'query'}: ${e.issues[0]?.message ?? 'bad query'}`;

/** `GET /api/sessions`, `GET /api/sessions/:agent/:id`, `POST /api/sessions/:agent/:id/resume`. */
export function sessionRoutes(d: SessionRouteDeps): Hono {
  const r = new Hono();
  r.get('/', async (c) => {
    const q = SessionsQuery.safeParse({ agent: c.req.query('agent') || undefined, folder: c.req.query('folder') || undefined, q: c.req.query('q') || undefined, cursor: c.req.query('cursor') || undefined, limit: c.req.query('limit'), machine: c.req.query('machine') || undefined });
    if (!q.success) return fail(c, new ApiError('bad_request', issue(q.error)));
    const crew = d.crew();
    try {
      if (crew) return c.json(await crew.list(q.data));
      if (q.data.machine !== undefined) return fail(c, new ApiError('not_found', `sessions: this machine is in no crew; no machine '${q.data.machine.slice(0, 100)}'`));
      return c.json(await d.actions.list(q.data));
    } catch (err) {
      return fail(c, err);
    }
  });
  r.get('/stopped', async (c) => {
    const out: StoppedSession[] = [];
    for (const s of d.sessions.remembered.stopped) {
      const a = SessionAgent.safeParse(s.agent);
      const found = a.success ? await d.sessions.find(a.data, s.id) : null;
      if (found) out.push({ ...found.summary, window: s.window });
    }
    return c.json({ sessions: out } satisfies StoppedSessions);
  });
  const target = (agent: string, id: string) => {
    const a = SessionAgent.safeParse(agent);
    if (!a.success) return new ApiError('not_found', `sessions: no agent '${agent.slice(0, 40)}' (claude, codex, gemini, opencode, pi)`);
    if (!/^[A-Za-z0-9_.-]{1,200}$/.test(id)) return new ApiError('bad_request', 'sessions: that is not a session id');
    return { agent: a.data, id };
  };
  /** The member that holds the session (`?machine=`), or null for this machine's own. */
  const member = (machine: string | undefined): string | null => {
    if (machine === undefined) return null;
    const crew = d.crew();
    if (!crew) throw new ApiError('not_found', `sessions: this machine is in no crew; no machine '${machine.slice(0, 100)}'`);
    return crew.member(machine);
  };
  r.get('/:agent/:id', async (c) => {
    const t = target(c.req.param('agent'), c.req.param('id'));
    if (t instanceof ApiError) return fail(c, t);
    const before = c.req.query('before');
    if (before !== undefined && !/^\d{1,15}$/.test(before)) return fail(c, new ApiError('bad_request', 'bridge: before is a cursor from an earlier page'));
    const limit = Math.min(500, Math.max(1, Number(c.req.query('limit') ?? 100) || 100));
    try {
      const m = member(c.req.query('machine'));
      const at = before === undefined ? null : Number(before);
      return c.json(m ? await d.crew()!.read(m, t.agent, t.id, at, limit) : await d.actions.read(t.agent, t.id, at, limit));
    } catch (err) {
      return fail(c, err);
    }
  });
  r.post('/:agent/:id/resume', async (c) => {
    const t = target(c.req.param('agent'), c.req.param('id'));
    if (t instanceof ApiError) return fail(c, t);
    const b = await body(c, SessionResumeBody);
    if (b instanceof ApiError) return fail(c, b);
    try {
      const m = member(c.req.query('machine'));
      return c.json(m ? await d.crew()!.resume(m, t.agent, t.id, b) : await d.actions.resume(t.agent, t.id, b));
    } catch (err) {
      return fail(c, err);
    }
  });
  return r;
}
