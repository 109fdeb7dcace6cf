import { Hono } from 'hono';
import { CloseRequest, RenameRequest, type Pane } from '@collie/protocol';
import { ApiError, fail } from '../../http/api-error';
import { body } from '../../http/routes/sends';

/** A pane's tmux server, through the bridge's one mux adapter (control mode). */
export interface PaneMux {
  tmuxId: string;
  command(args: readonly string[]): Promise<string[]>;
}

export interface PanesRouteDeps {
  pane: (id: string) => Pane | undefined;
  mux: (id: string) => PaneMux | null;
  /** Names a pane (its label from now on), or takes the name back (null); false when the pane is unknown. */
  setName: (id: string, name: string | null) => Promise<boolean>;
}

/** Whether tmux still has the pane (true when it cannot tell). */
async function paneThere(mux: PaneMux): Promise<boolean> {
  const ids = await mux.command(['list-panes', '-a', '-F', '#{pane_id}']).catch(() => null);
  return ids === null || ids.includes(mux.tmuxId);
}

/** `POST /api/panes/:id/rename` (the pane's label) and `POST /api/panes/:id/close`. */
export function paneRoutes(d: PanesRouteDeps): Hono {
  const r = new Hono();
  const find = (id: string): { pane: Pane; mux: PaneMux } | ApiError => {
    const pane = d.pane(id);
    const mux = d.mux(id);
    return pane && mux ? { pane, mux } : new ApiError('not_found', `bridge: no pane '${id.slice(0, 100)}'`);
  };
  r.post('/panes/:id/rename', async (c) => {
    const b = await body(c, RenameRequest);
    if (b instanceof ApiError) return fail(c, b);
    const at = find(c.req.param('id'));
    if (at instanceof ApiError) return fail(c, at);
    // The name is the pane's label (the row, the pane page, walky, pushes), kept by the bridge;
    // the tmux window keeps its own name, which other panes of the window share.
    if (!(await d.setName(at.pane.id, b.name))) return fail(c, new ApiError('not_found', `bridge: no pane '${at.pane.id.slice(0, 100)}'`));
    return c.json({ ok: true });
  });
  r.post('/panes/:id/close', async (c) => {
    const b = await body(c, CloseRequest);
    if (b instanceof ApiError) return fail(c, b);
    const at = find(c.req.param('id'));
    if (at instanceof ApiError) return fail(c, at);
    // An agent mid-turn loses its work: the phone asks twice, and says so here.
    if (at.pane.state === 'working' && !b.mid_turn) return fail(c, new ApiError('conflict', 'panes: the agent is working; confirm closing it mid-turn'));
    const failed = await at.mux.command(['kill-pane', '-t', at.mux.tmuxId]).then(
      () => null,
      (err: Error) => err,
    );
    // The control client that ran it may be the one attached to the pane's own session, which ends
    // with its last pane, its answer with it: the pane gone is what was asked.
    if (failed && (await paneThere(at.mux))) return fail(c, new ApiError('internal', `panes: the pane could not be closed: ${failed.message}`));
    return c.json({ ok: true });
  });
  return r;
}
