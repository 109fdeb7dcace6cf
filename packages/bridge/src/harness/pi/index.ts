import type { ScreenReading, ScreenState } from '@collie/protocol';
import type { AgentReader } from '../agent';
import { bottomTexts, type StyledLine } from '../screen/styled-line';
import { readPiCard, readPiDialog } from './dialog';
import { findEditor, readEditorDraft } from './editor';
import { piKeys } from './keys';

/**
 * pi (`pi-coding-agent`). While a turn runs a braille spinner and `Working...` sit above the
 * editor (older builds add `(esc to interrupt)`); it keeps spinning above an extension's
 * dialog, so a dialog wins.
 */
const WORKING = [/\besc to interrupt\b/iu, /^\s*[\u2801-\u28ff]\s+\S.*(?:…|\.\.\.)/u];
const ACTIVITY_ROWS = 30;

/** Read a pi screen: state, an extension's dialog or a menu the user opened, and the draft. */
export function readPi(lines: readonly StyledLine[]): ScreenReading {
  const editor = findEditor(lines);
  const dialog = readPiDialog(editor);
  const above = editor ? lines.slice(Math.max(0, editor.top - ACTIVITY_ROWS), editor.top).map((l) => l.text) : bottomTexts(lines, ACTIVITY_ROWS);
  const working = above.some((r) => WORKING.some((re) => re.test(r)));
  let state: ScreenState;
  // A menu the user opened (`menu`) leaves the state as it is under it; an extension's dialog blocks.
  if (dialog && dialog !== 'menu') state = 'blocked';
  else if (working) state = 'working';
  else if (editor) state = 'idle';
  else state = 'unknown';
  return { harness: 'pi', state, dialog, draft: editor && !dialog ? readEditorDraft(editor) : null };
}

/** pi's stand-in for a long paste in its editor: `[paste #1 +123 lines]`, `[paste #2 4000 chars]`. */
export const PI_PASTE = /^\[paste #\d+(?: (?:\+\d+ lines|\d+ chars))?\]$/u;

/** pi's reader in the one shape every agent has (`harness/agents.ts`). */
export const piAgent: AgentReader = {
  read: readPi,
  card: (lines, kind) => readPiCard(findEditor(lines), kind),
  keys: piKeys,
  stopKey: 'Escape',
  pastePlaceholder: PI_PASTE,
};
