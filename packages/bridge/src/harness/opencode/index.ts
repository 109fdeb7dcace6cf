import type { Dialog, ScreenReading, ScreenState } from '@collie/protocol';
import type { AgentReader } from '../agent';
import { bottomTexts, type StyledLine } from '../screen/styled-line';

/**
 * OpenCode (the opentui TUI). Under the prompt box a status row shows, while a turn runs, a
 * spinner and `esc interrupt` (`esc again to interrupt` after one press); at rest the same
 * row holds key hints such as `tab agents` and `ctrl+p commands`.
 */
const WORKING = /\besc (?:again to )?interrupt\b/u;
const IDLE_HINTS = [/\bctrl\+p commands\b/u, /\btab agents\b/u, /\besc exit shell mode\b/u];

/**
 * A permission request: `△ Permission required`, the tool (`# Shell command`, `→ Edit …`), and
 * the choices `Allow once   Allow always   Reject`.
 */
const PERMISSION = /\bPermission required\b/u;
const PERMISSION_CHOICES = /\bAllow once\b.*\bAllow always\b|\bReject\b/u;
const BOTTOM_ROWS = 60;

/**
 * Read an OpenCode screen: state and the permission dialog. The prompt is a textarea whose
 * placeholder is drawn in a muted colour rather than faint, so a draft cannot be told from the
 * placeholder on screen; the draft is reported as unknown (null).
 */
export function readOpencode(lines: readonly StyledLine[]): ScreenReading {
  const rows = bottomTexts(lines, BOTTOM_ROWS);
  const dialog: Dialog | null =
    rows.some((r) => PERMISSION.test(r)) && rows.some((r) => PERMISSION_CHOICES.test(r)) ? 'permission' : null;
  let state: ScreenState;
  if (dialog) state = 'blocked';
  else if (rows.some((r) => WORKING.test(r))) state = 'working';
  else if (rows.some((r) => IDLE_HINTS.some((re) => re.test(r)))) state = 'idle';
  else state = 'unknown';
  return { harness: 'opencode', state, dialog, draft: null };
}

/** opencode's reader in the one shape every agent has (`harness/agents.ts`). */
export const opencodeAgent: AgentReader = {
  read: readOpencode,
  stopKey: 'Escape',
  pastePlaceholder: null,
};
