import { existsSync } from 'node:fs';
import { Hono } from 'hono';
import { FilePath, type Pane } from '@collie/protocol';
import { ApiError, fail } from '../../http/api-error';
import type { Redactor } from '../../redact';
import { listFolder, readFileView } from './read';

export interface FilesRouteDeps {
  pane: (id: string) => Pane | undefined;
  /** `COLLIE_REDACT`: a file's text is served masked, like the mirror. */
  redact: Redactor;
}

/** `GET /api/panes/:id/files?path=P[&ignored=1]` and `GET /api/panes/:id/file?path=P`: read-only, inside the pane's root, never in `.git`, secrets masked. */
export function filesRoutes(d: FilesRouteDeps): Hono {
  const r = new Hono();
  const at = (id: string, raw: string | undefined): { cwd: string; rel: string } | ApiError => {
    const pane = d.pane(id);
    if (!pane) return new ApiError('not_found', `bridge: no pane '${id.slice(0, 100)}'`);
    if (!pane.cwd || !existsSync(pane.cwd)) return new ApiError('not_found', "files: the pane's folder is gone");
    const p = FilePath.safeParse(raw ?? '');
    if (!p.success) return new ApiError('bad_request', `files: path '${(raw ?? '').slice(0, 200)}' is not a path inside the folder (no .., not absolute, no control characters)`);
    return { cwd: pane.cwd, rel: p.data };
  };
  r.get('/panes/:id/files', async (c) => {
    const q = at(c.req.param('id'), c.req.query('path'));
    if (q instanceof ApiError) return fail(c, q);
    const ign = c.req.query('ignored') ?? '0';
    if (ign !== '0' && ign !== '1') return fail(c, new ApiError('bad_request', 'files: ignored is 0 or 1'));
    return c.json(await listFolder(q.cwd, q.rel, ign === '1'));
  });
  r.get('/panes/:id/file', async (c) => {
    const q = at(c.req.param('id'), c.req.query('path'));
    if (q instanceof ApiError) return fail(c, q);
    if (q.rel === '') return fail(c, new ApiError('bad_request', 'files: path names a file'));
    return c.json(await readFileView(q.cwd, q.rel, d.redact));
  });
  return r;
}
