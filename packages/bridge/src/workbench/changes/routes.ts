import { existsSync } from 'node:fs';
import { Hono } from 'hono';
import { MAX_SEND_CHARS, ReviewRequest, type Pane, type SendReceipt } from '@collie/protocol';
import { ApiError, fail } from '../../http/api-error';
import { body } from '../../http/routes/sends';
import type { Redactor } from '../../redact';
import { readChanges, repoRoot, repoStatus } from './read-changes';
import { reviewMessage } from './review-message';
import type { RepoWatchers } from './watch';

/** How long a wait for a change is held open before it answers `changed: false`. */
const WAIT_MS = 25_000;

export interface ChangesRouteDeps {
  pane: (id: string) => Pane | undefined;
  send: (paneId: string, text: string, requestId: string) => Promise<SendReceipt>;
  watchers: RepoWatchers;
  /** `COLLIE_REDACT`: every line of the diff is served masked. */
  redact: Redactor;
  /** Test knob: how long a wait is held (default 25 s). */
  waitMs?: number;
}

/** The pane's folder, or the error that says why there is none to read. */
function folderOf(d: ChangesRouteDeps, id: string): string | ApiError {
  const pane = d.pane(id);
  if (!pane) return new ApiError('not_found', `bridge: no pane '${id.slice(0, 100)}'`);
  if (!pane.cwd || !existsSync(pane.cwd)) return new ApiError('not_found', "changes: the pane's folder is gone");
  return pane.cwd;
}

/** `GET /api/panes/:id/changes?page=N` and `POST /api/panes/:id/review`. */
export function changesRoutes(d: ChangesRouteDeps): Hono {
  const r = new Hono();
  r.get('/panes/:id/changes', async (c) => {
    const cwd = folderOf(d, c.req.param('id'));
    if (cwd instanceof ApiError) return fail(c, cwd);
    const raw = c.req.query('page') ?? '0';
    if (!/^\d{1,6}$/.test(raw)) return fail(c, new ApiError('bad_request', 'changes: page is a number from 0'));
    return c.json(await readChanges(cwd, Number(raw), d.redact));
  });
  r.get('/panes/:id/changes/wait', async (c) => {
    const cwd = folderOf(d, c.req.param('id'));
    if (cwd instanceof ApiError) return fail(c, cwd);
    const root = await repoRoot(cwd);
    const changed = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        stop();
        resolve(false);
      }, d.waitMs ?? WAIT_MS);
      const stop = d.watchers.once(root, () => {
        clearTimeout(timer);
        resolve(true);
      });
      // The phone left (page closed, network gone): stop watching for it.
      c.req.raw.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        stop();
        resolve(false);
      });
    });
    return c.json({ changed });
  });
  r.post('/panes/:id/review', async (c) => {
    const b = await body(c, ReviewRequest);
    if (b instanceof ApiError) return fail(c, b);
    const id = c.req.param('id');
    const cwd = folderOf(d, id);
    if (cwd instanceof ApiError) return fail(c, cwd);
    // A comment names a file the diff shows now: nothing else of the machine is named to the agent.
    const status = await repoStatus(await repoRoot(cwd));
    const known = new Set(status.entries.flatMap((e) => (e.oldPath ? [e.path, e.oldPath] : [e.path])));
    const stray = b.comments.find((cm) => !known.has(cm.path));
    if (stray) return fail(c, new ApiError('bad_request', `changes: '${stray.path.slice(0, 200)}' is not among the changed files`));
    const text = reviewMessage(b.comments);
    if (text.length > MAX_SEND_CHARS) return fail(c, new ApiError('bad_request', `changes: the comments make a message over ${MAX_SEND_CHARS} characters`));
    return c.json({ receipt: await d.send(id, text, b.request_id) });
  });
  return r;
}
