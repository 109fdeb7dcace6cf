/**
 * Hash routes, so the bridge serves one `index.html` and never needs to know the app's paths:
 * `#/` is the dashboard, `#/pane/<encoded pane id>` a pane (ids hold `:` and `%`, so encoded).
 */
export type Route =
  | { readonly name: 'dashboard' }
  | { readonly name: 'pane'; readonly id: string }
  | { readonly name: 'devices' }
  | { readonly name: 'crew' }
  | { readonly name: 'pair'; readonly token: string | null }
  | { readonly name: 'durable'; readonly agent: string }
  | { readonly name: 'durable-chat'; readonly agent: string; readonly id: string }
  | { readonly name: 'durable-new'; readonly agent: string }
  | { readonly name: 'durable-read'; readonly agent: string; readonly id: string }
  | { readonly name: 'changes'; readonly id: string }
  /** `path` null: where the pane runs (the bridge's `start`). */
  | { readonly name: 'files'; readonly id: string; readonly path: string | null }
  | { readonly name: 'file'; readonly id: string; readonly path: string }
  | { readonly name: 'new' }
  | { readonly name: 'worktrees' }
  | { readonly name: 'settings' }
  | { readonly name: 'sessions' }
  /** `machine`: the crew machine that holds it (on a lead), null for this machine's own. */
  | { readonly name: 'session'; readonly agent: string; readonly id: string; readonly machine: string | null }
  | { readonly name: 'not-found' };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '');
  if (path === '' || path === '/') return { name: 'dashboard' };
  if (path === '/devices' || path === '/devices/') return { name: 'devices' };
  if (path === '/settings' || path === '/settings/') return { name: 'settings' };
  if (path === '/crew' || path === '/crew/') return { name: 'crew' };
  if (path === '/new' || path === '/new/') return { name: 'new' };
  if (path === '/worktrees' || path === '/worktrees/') return { name: 'worktrees' };
  if (path === '/sessions' || path === '/sessions/') return { name: 'sessions' };
  const session = /^\/sessions\/([a-z]{1,20})\/([^/]+)(?:\/on\/([a-z0-9][a-z0-9-]{0,99}))?\/?$/.exec(path);
  if (session?.[1] && session[2]) {
    const id = safeDecode(session[2]);
    if (id) return { name: 'session', agent: session[1], id, machine: session[3] ?? null };
  }
  const pair = /^\/pair(?:\/([A-Za-z0-9_-]{1,100}))?\/?$/.exec(path);
  if (pair) return { name: 'pair', token: pair[1] ?? null };
  const match = /^\/pane\/([^/]+)\/?$/.exec(path);
  if (match?.[1]) {
    const id = safeDecode(match[1]);
    if (id) return { name: 'pane', id };
  }
  const changes = /^\/pane\/([^/]+)\/changes\/?$/.exec(path);
  if (changes?.[1]) {
    const id = safeDecode(changes[1]);
    if (id) return { name: 'changes', id };
  }
  // A folder or file path rides as one encoded segment (its `/` encoded), so it never meets the route's own.
  const files = /^\/pane\/([^/]+)\/(files|file)(?:\/([^/]*))?\/?$/.exec(path);
  if (files?.[1]) {
    const id = safeDecode(files[1]);
    const rel = files[3] === undefined ? null : safeDecode(files[3]);
    if (id && files[2] === 'files' && (files[3] === undefined || rel !== null)) return { name: 'files', id, path: rel };
    if (id && files[2] === 'file' && rel) return { name: 'file', id, path: rel };
  }
  const durable = /^\/durable\/([^/]+)(?:\/([^/]+))?\/?$/.exec(path);
  if (durable?.[1]) {
    const agent = safeDecode(durable[1]);
    const id = durable[2] ? safeDecode(durable[2]) : null;
    if (agent && id) return { name: 'durable-chat', agent, id };
    if (agent && !durable[2]) return { name: 'durable', agent };
  }
  const more = /^\/durable-(new|read)\/([^/]+)(?:\/([^/]+))?\/?$/.exec(path);
  if (more?.[2]) {
    const agent = safeDecode(more[2]);
    const id = more[3] ? safeDecode(more[3]) : null;
    if (agent && more[1] === 'new' && !more[3]) return { name: 'durable-new', agent };
    if (agent && more[1] === 'read' && id) return { name: 'durable-read', agent, id };
  }
  return { name: 'not-found' };
}

export function dashboardHref(): string {
  return '#/';
}

export function paneHref(id: string): string {
  return `#/pane/${encodeURIComponent(id)}`;
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

export function devicesHref(): string {
  return '#/devices';
}

/** `#/pane/<id>/changes`: the pane's working-tree diff, for review. */
export function changesHref(id: string): string {
  return `#/pane/${encodeURIComponent(id)}/changes`;
}

/** `#/crew`: the crew's machines, invites, removal, Message all agents. */
export function crewHref(): string {
  return '#/crew';
}

export function settingsHref(): string {
  return '#/settings';
}

/** `#/pane/<id>/files/<path>`: a folder of the pane's repository (`''` its top); without a path, the folder the pane runs in. */
export function filesHref(id: string, path: string | null = null): string {
  return `#/pane/${encodeURIComponent(id)}/files${path === null ? '' : `/${encodeURIComponent(path)}`}`;
}

/** `#/pane/<id>/file/<path>`: one file of the pane's repository, read-only. */
export function fileHref(id: string, path: string): string {
  return `#/pane/${encodeURIComponent(id)}/file/${encodeURIComponent(path)}`;
}

/** `#/new`: start an agent (or a shell) in a new tmux window. */
export function sessionsHref(): string {
  return '#/sessions';
}

export function sessionHref(agent: string, id: string, machine: string | null = null): string {
  return `#/sessions/${agent}/${encodeURIComponent(id)}${machine ? `/on/${machine}` : ''}`;
}

export function newHref(): string {
  return '#/new';
}

/** `#/worktrees`: the worktrees New made, to remove one whose pane is gone. */
export function worktreesHref(): string {
  return '#/worktrees';
}
