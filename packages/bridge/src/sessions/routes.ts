import { Hono } from 'hono';
import { SessionAgent, SessionResumeBody, SessionsQuery, type SessionResumed, type StoppedSession, type StoppedSessions } from '@collie/protocol';
import { ApiError, fail } from '../http/api-error';
import { body } from '../http/routes/sends';
import { offeredLaunchers } from '../workbench/new/launchers';
import { agentOfPath } from '../procs/detect-harness';
import { resumeArgs } from './resume-command';
import type { Sessions } from './index';
import { openWindow, type WindowOpener } from './open-window';

export interface SessionRouteDeps {
  sessions: Sessions;
  configDir: string | null;
  env: NodeJS.ProcessEnv;
  /** Opens a window through the followed tmux servers (or a new one when none runs). */
  opener: WindowOpener;
}

/**
 * Whether a launcher's command runs `agent`: a word names it as a pane's process tree does
 * (`codex.js`, `opencode.exe`, `node …/@mariozechner/pi-coding-agent/dist/cli.js`).
 */
function runsAgent(command: readonly string[], agent: string): boolean {
  return command.some((w) => agentOfPath(w) === agent);
}

const issue = (e: { issues: Array<{ path: PropertyKey[]; message: string }> }) => `bridge: ${e.issues[0]?.path.join('.') || 'query'}: ${e.issues[0]?.message ?? 'bad query'}`;

/** `GET /api/sessions`, `GET /api/sessions/:agent/:id`, `POST /api/sessions/:agent/:id/resume`. */
export function sessionRoutes(d: SessionRouteDeps): Hono {
  const r = new Hono();
  r.get('/', async (c) => {
    const q = SessionsQuery.safeParse({ agent: c.req.query('agent') || undefined, folder: c.req.query('folder') || undefined, q: c.req.query('q') || undefined, cursor: c.req.query('cursor') || undefined, limit: c.req.query('limit') });
    if (!q.success) return fail(c, new ApiError('bad_request', issue(q.error)));
    return c.json(await d.sessions.list(q.data));
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
  r.get('/:agent/:id', async (c) => {
    const t = target(c.req.param('agent'), c.req.param('id'));
    if (t instanceof ApiError) return fail(c, t);
    const before = c.req.query('before');
    if (before !== undefined && !/^\d{1,15}$/.test(before)) return fail(c, new ApiError('bad_request', 'bridge: before is a cursor from an earlier page'));
    const limit = Math.min(500, Math.max(1, Number(c.req.query('limit') ?? 100) || 100));
    const chat = await d.sessions.read(t.agent, t.id, before === undefined ? null : Number(before), limit);
    return chat ? c.json(chat) : fail(c, new ApiError('not_found', `sessions: no ${t.agent} session '${t.id}'`));
  });
  r.post('/:agent/:id/resume', async (c) => {
    const t = target(c.req.param('agent'), c.req.param('id'));
    if (t instanceof ApiError) return fail(c, t);
    const b = await body(c, SessionResumeBody);
    if (b instanceof ApiError) return fail(c, b);
    const found = await d.sessions.find(t.agent, t.id);
    if (!found) return fail(c, new ApiError('not_found', `sessions: no ${t.agent} session '${t.id}'`));
    const args = resumeArgs(t.agent, found.summary.id, found.entry.path);
    // A pane runs it already: that pane, never a second agent writing the same session.
    if (found.summary.pane) return c.json({ pane: found.summary.pane, opened: false, argv: args } satisfies SessionResumed);
    const folder = found.summary.folder;
    if (!folder) return fail(c, new ApiError('conflict', `sessions: the ${t.agent} store does not say which folder this session ran in`));
    const offered = await offeredLaunchers(d.configDir, d.env);
    // Named, else the person's own saved launcher of this agent (its environment, its flags), else the agent on PATH.
    const launcher = b.launcher !== undefined ? offered.find((l) => l.name === b.launcher) : (offered.find((l) => l.source === 'saved' && runsAgent(l.command, t.agent)) ?? offered.find((l) => l.source === 'agent' && l.name === t.agent));
    if (!launcher) return fail(c, new ApiError('bad_request', b.launcher !== undefined ? `sessions: no launcher '${b.launcher.slice(0, 100)}'` : `sessions: ${t.agent} is not on PATH and no saved launcher runs it`));
    const argv = [...launcher.command, ...args];
    // After a reboot, the window gets the name it had; else the folder's label.
    const window = d.sessions.remembered.stopped.find((x) => x.agent === t.agent && x.id === found.summary.id)?.window || found.summary.label || t.agent;
    const pane = await openWindow(d.opener, { server: b.server, session: b.session }, folder, argv, window);
    d.sessions.remembered.forget(t.agent, found.summary.id);
    return c.json({ pane, opened: true, argv } satisfies SessionResumed);
  });
  return r;
}
