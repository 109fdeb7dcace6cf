import type { Dialog, ScreenReading, ScreenState } from '@collie/protocol';
import type { AgentReader } from '../agent';
import { bottomTexts, lastNonEmpty, typedText, type StyledLine } from '../screen/styled-line';

/**
 * Codex CLI (the Rust TUI). Its layout, bottom up: footer (`? for shortcuts  100% context
 * left`), the composer (`› ` then the text, a faint example prompt when empty), the status
 * row while a turn runs (`• Working (12s • esc to interrupt)`), then the transcript.
 */
const WORKING = [/\besc to interrupt\b/iu, /^\s*(?:[•◦·]\s*)?Working \(\d/u];

/**
 * Approval overlay: "Would you like to run the following command?" (or "make the following
 * edits?", "grant these permissions?") over `› 1. Yes, proceed (y)` … `No, and tell Codex
 * what to do differently (esc)`.
 */
const APPROVAL = [
  /^\s*Would you like to (?:run the following command|make the following edits|grant these permissions|allow)/u,
  /\bNo, and tell Codex what to do differently\b/u,
  /^\s*(?:›\s*)?\d+\.\s+Yes, proceed\b/u,
];
/** First-run folder trust: "Do you trust the contents of this directory?" and its options. */
const TRUST = [/\bDo you trust the contents of this directory\?/u, /\ballow Codex to work in this folder\b/iu];
const OPTION = /^\s*(?:›\s*)?\d+\.\s+\S/u;

/** The composer row: `›` at the left edge. Options inside overlays are numbered; it is not. */
const COMPOSER = /^›(?:\s(.*))?$/u;
/** The example prompts Codex rotates through in an empty composer (drawn faint as well). */
const PLACEHOLDERS = new Set([
  'Ask Codex to do anything',
  'Explain this codebase',
  'Summarize recent commits',
  'Implement {feature}',
  'Find and fix a bug in @filename',
  'Write tests for @filename',
  'Improve documentation in @filename',
  'Run /review on my current changes',
  'Use /skills to list available skills',
]);
const BOTTOM_ROWS = 40;
const COMPOSER_ROWS = 12;

export function readCodex(lines: readonly StyledLine[]): ScreenReading {
  const rows = bottomTexts(lines, BOTTOM_ROWS);
  const hasOptions = rows.some((r) => OPTION.test(r));
  let dialog: Dialog | null = null;
  if (hasOptions && rows.some((r) => TRUST.some((re) => re.test(r)))) dialog = 'trust';
  else if (hasOptions && rows.some((r) => APPROVAL.some((re) => re.test(r)))) dialog = 'permission';

  const composer = findComposer(lines);
  const working = rows.some((r) => WORKING.some((re) => re.test(r)));
  let state: ScreenState;
  if (dialog) state = 'blocked';
  else if (working) state = 'working';
  else if (composer >= 0) state = 'idle';
  else state = 'unknown';
  return { harness: 'codex', state, dialog, draft: dialog || composer < 0 ? null : readDraft(lines, composer) };
}

function findComposer(lines: readonly StyledLine[]): number {
  const end = lastNonEmpty(lines);
  for (let i = end; i >= 0 && i > end - COMPOSER_ROWS; i--) {
    const text = lines[i]?.text ?? '';
    if (COMPOSER.test(text) && !OPTION.test(text)) return i;
  }
  return -1;
}

/** The composer's typed text: its row after `› ` plus the indented rows that follow it. */
function readDraft(lines: readonly StyledLine[], row: number): string | null {
  const parts: string[] = [];
  for (let i = row; i < lines.length; i++) {
    const line = lines[i] as StyledLine;
    if (i > row && (line.text.trim() === '' || !line.text.startsWith('  '))) break;
    parts.push(typedText(line).replace(/^›\s?/u, '').trim());
  }
  const text = parts.filter((p) => p !== '').join(' ');
  return text === '' || PLACEHOLDERS.has(text) ? null : text;
}

/** codex's reader in the one shape every agent has (`harness/agents.ts`). */
export const codexAgent: AgentReader = {
  read: readCodex,
  stopKey: 'Escape',
  pastePlaceholder: null,
};
