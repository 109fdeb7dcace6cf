import type { Pane, PaneState } from '@collie/protocol';
import { limitReached } from './usage-words';

/** Who needs you first: a pane waiting on a dialog, then a finished turn nobody has read. */
export const STATE_RANK: Readonly<Record<PaneState, number>> = {
  blocked: 0,
  done: 1,
  working: 2,
  idle: 3,
  unknown: 4,
};

/** The panes behind "Show only panes that need you". */
export function needsYou(pane: Pane): boolean {
  return pane.state === 'blocked' || pane.state === 'done' || limitReached(pane);
}

/** A pane's rank: its state's, but a pane at its usage limit ranks with the finished turns (it needs you). */
export function rankOf(pane: Pane): number {
  return limitReached(pane) ? Math.min(STATE_RANK[pane.state], STATE_RANK.done) : STATE_RANK[pane.state];
}

/**
 * Dashboard order. Among panes that need you, the one waiting longest comes first; the rest
 * keep tmux's own order (window, then pane) so rows do not jump while agents work.
 */
export function comparePanes(a: Pane, b: Pane): number {
  const byState = rankOf(a) - rankOf(b);
  if (byState !== 0) return byState;
  if (needsYou(a) && a.since !== b.since) return a.since - b.since;
  return a.windowIndex - b.windowIndex || a.paneIndex - b.paneIndex || compareText(a.id, b.id);
}

/** One space: the panes of one tmux session, on one server of one machine. */
export interface Space {
  readonly key: string;
  readonly name: string;
  readonly server: string;
  readonly machine: string;
  readonly panes: readonly Pane[];
}

export interface Spaces {
  readonly spaces: readonly Space[];
  /** More than one server or machine is watched, so headings must say which one a space is on. */
  readonly showOrigin: boolean;
  /** Panes left out by the needs-you filter. */
  readonly hidden: number;
}

/**
 * Groups panes into spaces, each ranked internally, and ranks the spaces by their most urgent
 * pane (then by name). `needsYouOnly` keeps only blocked and done panes, dropping empty spaces.
 */
export function groupIntoSpaces(panes: Iterable<Pane>, needsYouOnly: boolean): Spaces {
  const all = [...panes];
  const servers = new Set(all.map((pane) => pane.server));
  const machines = new Set(all.map((pane) => pane.machine));
  const shown = needsYouOnly ? all.filter(needsYou) : all;
  const byKey = new Map<string, Pane[]>();
  for (const pane of shown) {
    const key = JSON.stringify([pane.machine, pane.server, pane.sessionName]);
    const group = byKey.get(key);
    if (group) group.push(pane);
    else byKey.set(key, [pane]);
  }
  const spaces: Space[] = [];
  for (const [key, group] of byKey) {
    group.sort(comparePanes);
    const first = group[0];
    if (!first) continue;
    spaces.push({ key, name: first.sessionName, server: first.server, machine: first.machine, panes: group });
  }
  spaces.sort(compareSpaces);
  return { spaces, showOrigin: servers.size > 1 || machines.size > 1, hidden: all.length - shown.length };
}

function compareSpaces(a: Space, b: Space): number {
  const [firstA, firstB] = [a.panes[0], b.panes[0]];
  const byPane = firstA && firstB ? rankOf(firstA) - rankOf(firstB) : 0;
  return byPane || compareText(a.name, b.name) || compareText(a.machine, b.machine) || compareText(a.server, b.server);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
