import type { ScreenReading, ScreenState } from '@collie/protocol';
import type { AgentReader } from '../agent';
import { readClaudeCard } from './card';
import { claudeKeys } from './card-keys';
import type { StyledLine } from '../screen/styled-line';
import { isTurnRunning } from './activity';
import { readDialog } from './dialog';
import { findInputBox, readDraft } from './input-box';
import { slashPopupTop } from './slash-popup';
import { claudeFieldText, claudeTextKeys } from './text-answer';
import { quotePath } from '../../workbench/quote-path';

/**
 * Read a Claude Code screen.
 *
 * - The input box is the lowest pair of `─` rules with the `❯` prompt on the first row
 *   between them; footers (status line, background agents) sit below it.
 * - A modal (permission, AskUserQuestion, plan approval, folder trust, a picker) replaces
 *   the box; every modal but the user-opened picker (`menu`) means the agent waits: blocked.
 * - The slash-command popup against the box is a `menu` too (`slash-popup.ts`).
 * - A spinner line just above the box means a turn is running.
 */
export function readClaude(lines: readonly StyledLine[]): ScreenReading {
  const box = findInputBox(lines);
  const draft = box ? readDraft(box) : null;
  // The slash popup over the box: a menu. The `/…` typed stays the box's text (its rows are
  // never read as one): a send of `/help` (a typed mode) checks the box holds exactly what it
  // pasted, and the send protocol holds for the menu before it looks at a draft.
  const popup = box ? slashPopupTop(lines, box, draft) : null;
  if (popup !== null) return { harness: 'claude', state: isTurnRunning(lines, popup) ? 'working' : 'idle', dialog: 'menu', draft };
  const dialog = box ? null : readDialog(lines);
  const working = isTurnRunning(lines, box?.top ?? null);
  let state: ScreenState;
  if (dialog !== null && dialog !== 'menu') state = 'blocked';
  else if (working) state = 'working';
  else if (box || dialog === 'menu') state = 'idle';
  else state = 'unknown';
  return { harness: 'claude', state, dialog, draft };
}

/** Claude's placeholder for a paste it did not spell out: `[Pasted text #2 +41 lines]`. */
export const PASTE_PLACEHOLDER = /^\[Pasted text #\d+(?: \+\d+ lines)?\]$/;

/** Claude Code's reader in the one shape every agent has (`harness/agents.ts`). */
export const claudeAgent: AgentReader = {
  read: readClaude,
  card: readClaudeCard,
  keys: claudeKeys,
  textKeys: claudeTextKeys,
  fieldText: claudeFieldText,
  stopKey: 'Escape',
  pastePlaceholder: PASTE_PLACEHOLDER,
  // Seen on 2.1.334 (2026-12-03): a paste starting with `!` switches the box to bash mode and
  // Enter runs the rest in the shell (the model gets it as <bash-input>); one starting with
  // `/` runs that command (`/help` opens help; an unknown one says `Unknown command`).
  modes: [
    { prefix: '!', words: 'run as a shell command (a leading ! is shell mode)' },
    { prefix: '/', words: 'run as a command (a leading / is a command), not sent as a message' },
  ],
  // Seen on 2.1.334 (2026-12-03): `@<absolute path> text` sends the file with the message (a
  // PNG as an image block); a bare absolute path would start the text with `/`, a command.
  // A path with spaces is quoted (`@"/a b/c.png"`, Claude Code's own form for such paths).
  attachment: (path) => `@${quotePath(path)}`,
};
