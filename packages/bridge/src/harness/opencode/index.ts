import type { ScreenReading, ScreenState } from '@collie/protocol';
import type { AgentReader } from '../agent';
import type { StyledLine } from '../screen/styled-line';
import { readOpencodeCard, readOpencodeDialog } from './dialog';
import { findInputBox, readInputDraft } from './input-box';
import { opencodeKeys } from './keys';
import { isMenu } from './menu';

/**
 * OpenCode (the opentui TUI). Under the prompt box a status bar shows, while a turn runs, an
 * animated block bar and `esc interrupt` (`esc again to interrupt` after one press); at rest
 * it holds the directory or key hints such as `tab agents` and `ctrl+p commands`. A menu the
 * user opened (`menu.ts`) reads as the state under it with the dialog `menu`.
 */
const WORKING = /\besc (?:again to )?interrupt\b/u;
const IDLE_HINTS = /\bctrl\+p commands\b|\btab agents\b|\besc exit shell mode\b/u;
/** The status bar is the row or two under the box. */
const BAR_ROWS = 3;

/** Read an OpenCode screen: state, the permission or question dialog, and the draft. */
export function readOpencode(lines: readonly StyledLine[]): ScreenReading {
  const box = findInputBox(lines);
  const dialog = box ? null : readOpencodeDialog(lines);
  const bar = box ? lines.slice(box.bottom + 1, box.bottom + 1 + BAR_ROWS).map((l) => l.text) : [];
  // A menu the user opened: the state under it (a running turn's status bar, else idle), no draft.
  if (!dialog && isMenu(lines, box)) {
    const running = (box ? bar : lines.slice(-BAR_ROWS - 2).map((l) => l.text)).some((r) => WORKING.test(r));
    return { harness: 'opencode', state: running ? 'working' : 'idle', dialog: 'menu', draft: null };
  }
  let state: ScreenState;
  if (dialog) state = 'blocked';
  else if (bar.some((r) => WORKING.test(r))) state = 'working';
  else if (box && bar.some((r) => IDLE_HINTS.test(r))) state = 'idle';
  else state = 'unknown';
  return { harness: 'opencode', state, dialog, draft: box ? readInputDraft(box) : null };
}

/** OpenCode's reader in the one shape every agent has (`harness/agents.ts`). */
export const opencodeAgent: AgentReader = {
  read: readOpencode,
  card: readOpencodeCard,
  keys: opencodeKeys,
  stopKey: 'Escape',
  pastePlaceholder: null,
};
