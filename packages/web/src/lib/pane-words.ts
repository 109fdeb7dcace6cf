import type { Pane, PaneState } from '@collie/protocol';
import { spokenDuration } from './duration';
import { STATE_WORDS } from './words';

/** A label split where it can break: the repo and its `#branch`, which must never be dropped. */
export interface LabelParts {
  readonly name: string;
  /** `#branch`, or '' when the label has none. */
  readonly branch: string;
}

/** The last folder of a path (`/` itself for the root). */
export function folderOf(cwd: string): string {
  const parts = cwd.split('/').filter((p) => p !== '');
  return parts[parts.length - 1] ?? (cwd === '' ? '' : '/');
}

/**
 * What tells this pane apart: the bridge's `<repo>#<branch>`; for a shell outside git, its
 * folder rather than a terminal title (which is often just the host name). Pure.
 */
export function labelParts(pane: Pick<Pane, 'label' | 'harness' | 'cwd' | 'named'>): LabelParts {
  // A name the person gave is shown as given.
  if (pane.named === true) return { name: pane.label, branch: '' };
  const label = pane.harness === 'shell' && !pane.label.includes('#') && pane.cwd !== '' ? folderOf(pane.cwd) : pane.label;
  const at = label.lastIndexOf('#');
  return at > 0 ? { name: label.slice(0, at), branch: label.slice(at) } : { name: label, branch: '' };
}

/** A pane's state in words; a shell has no agent state to tell, so it is called what it is. */
export function stateWord(state: PaneState, harness?: Pane['harness']): string {
  return harness === 'shell' && (state === 'unknown' || state === 'idle') ? 'Shell' : STATE_WORDS[state];
}

/** A row's accessible name: label, then the state in words and for how long ("Blocked for 58 seconds"). */
export function rowName(pane: Pane, now: number, extra: readonly string[] = []): string {
  const parts = labelParts(pane);
  const state = stateWord(pane.state, pane.harness);
  const since = state === 'Shell' ? '' : ` for ${spokenDuration(now - pane.since)}`;
  return [`${parts.name}${parts.branch}`, `${state}${since}`, ...extra].join(', ');
}

/** When a crew member was last seen, in words: "just now", "4 min ago", "3 h ago", "2 days ago". */
export function seenAgo(at: number, now: number): string {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  const d = Math.round(s / 86_400);
  return `${d} day${d === 1 ? '' : 's'} ago`;
}
