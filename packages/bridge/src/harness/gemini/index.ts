import type { Dialog, ScreenReading, ScreenState } from '@collie/protocol';
import type { AgentReader } from '../agent';
import { bottomTexts, lastNonEmpty, typedText, type StyledLine } from '../screen/styled-line';

/**
 * Gemini CLI (Ink). While a turn runs its loading row reads `⠏ Thinking… (esc to cancel, 12s)`.
 * The input sits in a rounded box: `│ > Type your message or @path/to/file │`, the placeholder
 * in grey (not faint), so it is recognised by its words.
 */
const WORKING = /\(esc to cancel\b/iu;

/**
 * Tool confirmation: "Allow execution of: 'echo'?", "Apply this change?" or "Do you want to
 * proceed?" over `● 1. Allow once` … `No, suggest changes (esc)`.
 */
const CONFIRM_QUESTION = /(?:Allow execution(?: of)?\b.*\?|Apply this change\?|Do you want to proceed\?)\s*$/u;
const CONFIRM_OPTION =
  /^\s*(?:●\s*)?\d+\.\s+(?:Allow once|Allow for this session|Yes, allow once|Yes, allow always|No, suggest changes)\b/u;
/** Folder trust: "Do you trust this folder?" with `1. Trust folder`. */
const TRUST = /\bDo you trust this folder\?/u;
const TRUST_OPTION = /^\s*(?:●\s*)?\d+\.\s+Trust (?:folder|parent folder)\b/u;

/** The prompt row, inside the box's side borders or (newer builds) without them. */
const PROMPT = /^\s*(?:│\s*)?[>!*](?:\s|$)/u;
const PLACEHOLDERS = new Set([
  'Type your message or @path/to/file',
  'Type your shell command',
  "Press 'Esc' for NORMAL mode.",
  "Press 'i' for INSERT mode.",
]);
const BOTTOM_ROWS = 40;
const PROMPT_ROWS = 12;

export function readGemini(lines: readonly StyledLine[]): ScreenReading {
  const rows = bottomTexts(lines, BOTTOM_ROWS);
  let dialog: Dialog | null = null;
  if (rows.some((r) => TRUST.test(r)) && rows.some((r) => TRUST_OPTION.test(r))) dialog = 'trust';
  else if (rows.some((r) => CONFIRM_OPTION.test(r)) && rows.some((r) => CONFIRM_QUESTION.test(r))) {
    dialog = 'permission';
  }
  const prompt = dialog ? -1 : findPrompt(lines);
  let state: ScreenState;
  if (dialog) state = 'blocked';
  else if (rows.some((r) => WORKING.test(r))) state = 'working';
  else if (prompt >= 0) state = 'idle';
  else state = 'unknown';
  return { harness: 'gemini', state, dialog, draft: prompt >= 0 ? readDraft(lines, prompt) : null };
}

function findPrompt(lines: readonly StyledLine[]): number {
  const end = lastNonEmpty(lines);
  for (let i = end; i >= 0 && i > end - PROMPT_ROWS; i--) {
    if (PROMPT.test(lines[i]?.text ?? '')) return i;
  }
  return -1;
}

/** The typed text on the prompt row and the box rows under it, without borders or placeholder. */
function readDraft(lines: readonly StyledLine[], row: number): string | null {
  const parts: string[] = [];
  for (let i = row; i < lines.length; i++) {
    const text = typedText(lines[i] as StyledLine);
    const inner = i === row ? text.slice(PROMPT.exec(text)?.[0].length ?? 0) : insideBorders(text);
    if (inner === null) break;
    parts.push(stripRightBorder(inner).trim());
  }
  const text = parts.filter((p) => p !== '').join(' ');
  return text === '' || PLACEHOLDERS.has(text) ? null : text;
}

/** The text between a box row's side borders, or null when the row is not one. */
function insideBorders(text: string): string | null {
  const t = text.trim();
  return t.length >= 2 && t.startsWith('│') && t.endsWith('│') ? t.slice(1, -1) : null;
}

function stripRightBorder(text: string): string {
  const t = text.trimEnd();
  return t.endsWith('│') ? t.slice(0, -1) : t;
}

/** gemini's reader in the one shape every agent has (`harness/agents.ts`). */
export const geminiAgent: AgentReader = {
  read: readGemini,
  stopKey: 'Escape',
  pastePlaceholder: null,
};
