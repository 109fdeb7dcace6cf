import type { AgentRecord, AgentStatus } from '@collie/protocol';

/** A record as the UI shows it: the server's attention plus `quiet` (spec: a UI flag). */
export interface AgentView {
  readonly record: AgentRecord;
  readonly quiet: boolean;
  readonly needsAttention: boolean;
  /** Nesting under its parent in the Running group (0: top level). */
  readonly depth: number;
}

export type GroupName = 'attention' | 'running' | 'done' | 'ended';
export const GROUP_TITLES: Record<GroupName, string> = { attention: 'Needs attention', running: 'Running', done: 'Done', ended: 'Ended' };

const LIVE: ReadonlySet<AgentStatus> = new Set(['starting', 'running', 'stopping']);
export const isLive = (r: AgentRecord): boolean => LIVE.has(r.status);

/** A running agent with no activity for `quietAfterMinutes` (spec "Attention"). */
export function isQuiet(r: AgentRecord, now: number, quietAfterMinutes: number): boolean {
  return r.status === 'running' && now - r.last_activity_at >= quietAfterMinutes * 60_000;
}

/** The fetched list with every record an event carried (the newer copy wins; a tie goes to the event). */
export function mergeRecords(fetched: readonly AgentRecord[], events: ReadonlyMap<string, AgentRecord>): AgentRecord[] {
  const all = new Map(fetched.map((r) => [r.agent_id, r]));
  for (const [id, r] of events) {
    const had = all.get(id);
    if (!had || had.last_activity_at <= r.last_activity_at) all.set(id, r);
  }
  return [...all.values()].sort((a, b) => a.created_at - b.created_at || a.agent_id.localeCompare(b.agent_id));
}

/**
 * The Agents panel's groups, in the spec's order: Needs attention → Running (children nested
 * under their parent, depth first) → Done → Ended. An agent is in exactly one group.
 */
export function groupAgents(records: readonly AgentRecord[], now: number, quietAfterMinutes: number): { name: GroupName; views: AgentView[] }[] {
  const view = (r: AgentRecord, depth = 0): AgentView => {
    const quiet = isQuiet(r, now, quietAfterMinutes);
    return { record: r, quiet, needsAttention: r.attention.length > 0 || quiet, depth };
  };
  const attention: AgentView[] = [];
  const done: AgentView[] = [];
  const ended: AgentView[] = [];
  const running: AgentRecord[] = [];
  for (const r of records) {
    const v = view(r);
    if (v.needsAttention) attention.push(v);
    else if (isLive(r)) running.push(r);
    else if (r.status === 'completed') done.push(v);
    else ended.push(v);
  }
  // Running: a tree by parent_agent_id; a child whose parent is not in the group is top level.
  const ids = new Set(running.map((r) => r.agent_id));
  const children = new Map<string | null, AgentRecord[]>();
  for (const r of running) {
    const p = r.parent_agent_id && ids.has(r.parent_agent_id) ? r.parent_agent_id : null;
    children.set(p, [...(children.get(p) ?? []), r]);
  }
  const tree: AgentView[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const r of children.get(parent) ?? []) {
      tree.push(view(r, depth));
      walk(r.agent_id, depth + 1);
    }
  };
  walk(null, 0);
  const groups: { name: GroupName; views: AgentView[] }[] = [
    { name: 'attention', views: attention },
    { name: 'running', views: tree },
    { name: 'done', views: done },
    { name: 'ended', views: ended },
  ];
  return groups.filter((g) => g.views.length > 0);
}

/** The agent dock's line: counts, then the latest activity of a live agent. */
export function dockLine(records: readonly AgentRecord[], now: number, quietAfterMinutes: number): { counts: string; latest: string | null } | null {
  if (records.length === 0) return null;
  const groups = groupAgents(records, now, quietAfterMinutes);
  const n = (g: GroupName) => groups.find((x) => x.name === g)?.views.length ?? 0;
  const parts = [`${n('running')} running`];
  if (n('attention') > 0) parts.push(`${n('attention')} need${n('attention') === 1 ? 's' : ''} attention`);
  parts.push(`${n('done')} done`);
  if (n('ended') > 0) parts.push(`${n('ended')} ended`);
  const latest = [...records].filter((r) => isLive(r) && r.activity).sort((a, b) => b.last_activity_at - a.last_activity_at)[0];
  return { counts: parts.join(' · '), latest: latest ? `${latest.name}: ${latest.activity!}` : null };
}

/** A record's status in words: stopped is never "done". */
export function statusWords(r: AgentRecord): string {
  const reason = r.reason ? ` (${r.reason.replace(/_/g, ' ')})` : '';
  switch (r.status) {
    case 'completed':
      return 'Done';
    case 'starting':
      return 'Starting';
    case 'running':
      return 'Running';
    case 'stopping':
      return 'Stopping';
    case 'failed':
      return 'Failed';
    case 'stopped':
      return `Stopped${reason}`;
    case 'interrupted':
      return `Interrupted${reason}`;
    case 'lost':
      return `Lost${reason}`;
  }
}

/** Tokens as a short figure: 950, 12.3k, 1.2M. */
export function tokenWords(n: number): string {
  if (n < 1000) return `${n} tok`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k tok`;
  return `${(n / 1_000_000).toFixed(1)}M tok`;
}

export const costWords = (usd: number): string => `~$${usd < 0.01 && usd > 0 ? '<0.01' : usd.toFixed(2)}`;

/** Agent tabs: at most this many subscribe to their transcripts at once (spec "Limits"). */
export const MAX_SUBSCRIBED_TABS = 8;

/** Opens (or focuses) a tab; the newest 8 opened stay subscribed, older ones pause. */
export function openTab(tabs: readonly string[], id: string): string[] {
  return tabs.includes(id) ? [...tabs] : [...tabs, id];
}

/** The tabs that follow their transcript live: the 8 most recently opened. */
export function subscribedTabs(tabs: readonly string[], active: string | null): Set<string> {
  const recent = tabs.slice(-MAX_SUBSCRIBED_TABS);
  // The tab you look at always follows, in place of the oldest of the eight.
  if (active && !recent.includes(active)) recent.splice(0, 1, active);
  return new Set(recent);
}

/** A queued message moved one place up (-1) or down (+1): the new order of queue ids. */
export function moveInQueue(order: readonly string[], id: string, by: -1 | 1): string[] | null {
  const i = order.indexOf(id);
  const j = i + by;
  if (i < 0 || j < 0 || j >= order.length) return null;
  const next = [...order];
  [next[i], next[j]] = [next[j]!, next[i]!];
  return next;
}

/** The sender Nerve records for what a paired device types (the bridge names it): only it cancels. */
export const PHONE_SENDER = 'phone';
