import type { ScreenReading, ScreenState } from '@collie/protocol';
import type { AgentReader } from '../agent';
import { typedText, type StyledLine } from '../screen/styled-line';
import { codexKeys, readCodexCard } from './card';
import { findComposer, findDialog, isUserMessage } from './layout';
import { findMenu, isPanel } from './menu';

/**
 * Codex CLI 0.171 (the Rust TUI); see `layout.ts` for where things are.
 *
 * A turn is running when the status row says so (`esc to interrupt`; `Waiting for startup`
 * while a prompt waits for the session), and also while the reply streams: then Codex drops
 * the status row and shows only the growing text. So when no status row shows, the transcript
 * above the composer decides: a user message with no turn end (`Worked for …`, or `■ …` for an
 * interrupt or an error) under it is a turn still running. A menu the user opened (`menu.ts`)
 * reads as the state under it with the dialog `menu`; the F2 warnings panel reads idle.
 */
const STATUS = [/\besc to interrupt\)/u, /^\s*Waiting for startup\b.*\besc cancel\b/u];
/** A turn's end: `Worked for 8s • 17:14` (0.171), the time alone (`  03:47`, 0.156), `■ …` for an interrupt or error. */
const TURN_END = /^\s*Worked for (?:<\d+|\d+)[smh]\b|^\s+\d{1,2}:\d{2}\s*$|^■ /u;
/** A user message may be taller than the screen; past this many rows the scan gives up (idle). */
const TRANSCRIPT_ROWS = 200;

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

export function readCodex(lines: readonly StyledLine[]): ScreenReading {
  const dialog = findDialog(lines);
  if (dialog) return { harness: 'codex', state: 'blocked', dialog: dialog.kind, draft: null };
  const composer = findComposer(lines);
  // A menu the user opened: the state under it, no draft (the popup's `/…` is the menu's filter).
  const menu = findMenu(lines, composer);
  if (menu >= 0) return { harness: 'codex', state: runningAbove(lines, menu) ? 'working' : 'idle', dialog: 'menu', draft: null };
  // The F2 warnings panel hides the composer: a `› ` row above it is history (0.156 draws user messages bold, not faint).
  if (isPanel(lines)) return { harness: 'codex', state: 'idle', dialog: null, draft: null };
  if (composer < 0) return { harness: 'codex', state: 'unknown', dialog: null, draft: null };
  const state: ScreenState = runningAbove(lines, composer) ? 'working' : 'idle';
  return { harness: 'codex', state, dialog: null, draft: readDraft(lines, composer) };
}

/** A turn runs over row `row` (the composer, or the top of a menu): its status row, or a user message still unanswered. */
function runningAbove(lines: readonly StyledLine[], row: number): boolean {
  return lines.slice(Math.max(0, row - 4), row).some((l) => STATUS.some((re) => re.test(l.text))) || turnOpen(lines, row);
}

/** Scanning up from the composer: a user message before any turn end means its turn runs. */
function turnOpen(lines: readonly StyledLine[], composer: number): boolean {
  for (let i = composer - 1; i >= 0 && i >= composer - TRANSCRIPT_ROWS; i--) {
    const line = lines[i] as StyledLine;
    if (TURN_END.test(line.text)) return false;
    if (isUserMessage(line)) return true;
  }
  return false;
}

/** The composer's typed text: its row after `› ` plus the indented rows that wrap it. */
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

/** Codex's reader in the one shape every agent has (`harness/agents.ts`). */
export const codexAgent: AgentReader = {
  read: readCodex,
  card: readCodexCard,
  keys: codexKeys,
  stopKey: 'Escape',
  pastePlaceholder: null,
};
