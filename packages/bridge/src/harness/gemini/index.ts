import type { ScreenReading, ScreenState } from '@collie/protocol';
import type { AgentReader } from '../agent';
import { bottomTexts, lastNonEmpty, typedText, type StyledLine } from '../screen/styled-line';
import { geminiKeys, readGeminiCard } from './card';
import { findDialog, findPrompt, PROMPT } from './layout';
import { isMenu } from './menu';

/**
 * Gemini CLI 0.61 (Ink); see `layout.ts` for where things are. While a turn runs its running
 * row reads `⠏ Thinking... (esc to cancel, 12s)` (also while an approved command runs). A menu
 * the user opened (`menu.ts`) reads as the state under it with the dialog `menu`.
 */
const WORKING = /\(esc to cancel\b/iu;
/**
 * While it loads a resumed session (`--resume`) Gemini CLI draws the session's turns at once but
 * takes no input: its input box is not drawn and `⠋ Resuming session...` runs in its place
 * (`useSessionResume`: `isResuming` keeps the prompt unmounted, so keys typed then are lost). The
 * last `> ` row is then the transcript's last message, not a box: nothing is read as a draft.
 */
const RESUMING = /^\s*(?:[\u2800-\u28FF]\s+)?Resuming session\.\.\.(?:\s|$)/u;
const BOTTOM_ROWS = 40;

/** The grey placeholders of an empty input (not faint, so known by their words). */
const PLACEHOLDERS = new Set([
  'Type your message or @path/to/file',
  'Type your shell command',
  "Press 'Esc' for NORMAL mode.",
  "Press 'i' for INSERT mode.",
]);

export function readGemini(lines: readonly StyledLine[]): ScreenReading {
  const dialog = findDialog(lines);
  if (dialog) return { harness: 'gemini', state: 'blocked', dialog: dialog.kind, draft: null };
  const prompt = findPrompt(lines);
  if (resuming(lines, prompt)) return { harness: 'gemini', state: 'unknown', dialog: null, draft: null, reason: 'Gemini CLI is loading the resumed session' };
  const working = bottomTexts(lines, BOTTOM_ROWS).some((r) => WORKING.test(r));
  // A menu the user opened: the state under it, and no draft (the popup's `/…` is its filter).
  if (isMenu(lines)) return { harness: 'gemini', state: working ? 'working' : 'idle', dialog: 'menu', draft: null };
  let state: ScreenState;
  if (working) state = 'working';
  else if (prompt >= 0) state = 'idle';
  else state = 'unknown';
  return { harness: 'gemini', state, dialog: null, draft: prompt >= 0 ? readDraft(lines, prompt) : null };
}

/** The resume's spinner row is drawn below every `> ` row (the input box is never drawn under it). */
function resuming(lines: readonly StyledLine[], prompt: number): boolean {
  const end = lastNonEmpty(lines);
  for (let i = end; i > prompt && i > end - BOTTOM_ROWS; i--) if (RESUMING.test(lines[i]?.text ?? '')) return true;
  return false;
}

/**
 * The typed text on the prompt row and the rows it wraps onto, without the box's sides or the
 * placeholder. Wrapped rows are indented under the text, down to the box's `▀▀▀` edge (older
 * builds draw `│` sides instead).
 */
function readDraft(lines: readonly StyledLine[], row: number): string | null {
  const parts: string[] = [];
  for (let i = row; i < lines.length; i++) {
    const text = typedText(lines[i] as StyledLine);
    const inner = i === row ? text.slice(PROMPT.exec(text)?.[0].length ?? 0) : continuation(text);
    if (inner === null) break;
    parts.push(stripRightBorder(inner).trim());
  }
  const text = parts.filter((p) => p !== '').join(' ');
  return text === '' || PLACEHOLDERS.has(text) ? null : text;
}

/** A wrapped row of the input: inside `│` sides, or indented under the text; null otherwise. */
function continuation(text: string): string | null {
  const t = text.trim();
  if (t.length >= 2 && t.startsWith('│') && t.endsWith('│')) return t.slice(1, -1);
  return /^ {3}\S/u.test(text) && !/^\s*[▀▄─]/u.test(text) ? text : null;
}

function stripRightBorder(text: string): string {
  const t = text.trimEnd();
  return t.endsWith('│') ? t.slice(0, -1) : t;
}

/** Gemini CLI's reader in the one shape every agent has (`harness/agents.ts`). */
export const geminiAgent: AgentReader = {
  read: readGemini,
  card: readGeminiCard,
  keys: geminiKeys,
  stopKey: 'Escape',
  pastePlaceholder: null,
  // 0.61 turns an Enter within 40 ms of a paste into a line break (its guard for terminals
  // whose pastes it cannot trust, tmux among them); its timer runs late on a busy machine.
  submitDelayMs: 400,
};
