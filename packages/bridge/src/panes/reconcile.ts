import type { TmuxPane } from '../mux/tmux';
import { paneId } from './pane-view';
import { newTracked, publishView, type TrackerCore } from './tracked-pane';

/**
 * Brings the tracker's panes in line with tmux's list: a pane gone is removed (and published
 * so), a pane still there takes its new facts, a new pane is added and read. Tokens of panes
 * gone are swept.
 */
export async function reconcile(c: TrackerCore): Promise<void> {
  let list: TmuxPane[];
  try {
    list = await c.d.server.listPanes();
  } catch {
    return; // the server is going away; discovery reports it
  }
  if (c.stopped()) return;
  const live = new Map(list.filter((p) => !p.dead).map((p) => [p.paneId, p]));
  for (const [tmuxId, t] of c.panes) {
    if (live.has(tmuxId)) continue;
    if (t.timer) clearTimeout(t.timer);
    c.panes.delete(tmuxId);
    if (t.view) c.d.hub.publish({ type: 'pane.removed', id: paneId(c.name, tmuxId) });
  }
  const fresh: Promise<void>[] = [];
  for (const [tmuxId, info] of live) {
    const t = c.panes.get(tmuxId);
    if (t) {
      t.info = info;
      publishView(c, tmuxId, t);
      continue;
    }
    c.panes.set(tmuxId, newTracked(info, c.d.tokens.nameOf(c.tokenKey(tmuxId)) ?? info.title, c.now()));
    fresh.push(c.read(tmuxId));
  }
  c.d.tokens.sweep(new Set([...live.keys()].map((id) => c.tokenKey(id))), c.now(), `${c.name}:`);
  await Promise.all(fresh);
}
