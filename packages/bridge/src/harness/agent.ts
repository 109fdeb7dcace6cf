import type { Dialog, DialogCard, ScreenReading } from '@collie/protocol';
import type { StyledLine } from './screen/styled-line';

/** The keys to press, one tmux key name per step; or why not, in words. */
export type KeyPlan = { ok: true; steps: string[] } | { ok: false; reason: string };

/** An answer the phone gives to a card: one option, or the boxes of a multi-select to toggle. */
export interface CardAnswer {
  option?: number;
  toggle?: number[];
}

/**
 * One agent's screen reading, behind one shape. Each `harness/<agent>/` folder exports one
 * of these and `agents.ts` finds it by the detected harness; shared code never branches on
 * the harness's name. Adding an agent is adding a folder and a row in that table.
 *
 * Every function is pure and total over any captured screen: no I/O, never a throw.
 */
export interface AgentReader {
  /** State, dialog kind and draft of one parsed screen (capture-pane -e text). */
  read(lines: readonly StyledLine[]): ScreenReading;
  /**
   * The open dialog as a card (without its signature, which the caller adds), or null when
   * this agent's dialogs are shown as the screen only.
   */
  card?(lines: readonly StyledLine[], dialog: Dialog): Omit<DialogCard, 'signature'> | null;
  /**
   * The keys that give `answer` to `card`. Called only for an answerable card whose options
   * exist, are not text fields, and are not listed twice.
   */
  keys?(card: DialogCard, answer: CardAnswer): KeyPlan;
  /**
   * The keys that put the pointer into the text field of option `option` (a `freeText` option,
   * or one with `amend`), ready for typing; the caller then types, verifies with `fieldText`, and
   * presses Enter. Absent where the agent takes no typed answers in its dialogs.
   */
  textKeys?(card: DialogCard, option: number): KeyPlan;
  /** What the open dialog's text field under the pointer holds (placeholder included), or null when the pointer is on none. */
  fieldText?(lines: readonly StyledLine[]): string | null;
  /** The tmux key that ends a running turn ("esc to interrupt" on most agents' screens). */
  stopKey: string;
  /**
   * The agent's own stand-in for a paste it did not spell out in the box (Claude Code:
   * `[Pasted text #2 +41 lines]`), tested against the whitespace-folded draft; null when it
   * always shows the text.
   */
  pastePlaceholder: RegExp | null;
  /**
   * Leading characters that make the agent take a submitted text as something other than a
   * message (Claude Code: `!` runs a shell command, `/` a command), with the words a
   * receipt adds after `typed into the pane: `. A send types such text as a person would.
   */
  modes?: readonly { prefix: string; words: string }[];
  /**
   * How long after pasted text shows in its input the agent takes Enter as a submit; before
   * that it takes Enter as a line break in the paste (Gemini CLI: 40 ms after a paste it cannot
   * tell from typing). Default 0.
   */
  submitDelayMs?: number;
  /**
   * How a message refers to an attached file, in the agent's own syntax (the workbench's
   * attachments; Claude Code: `@<path>`); absent: the bare absolute path, after the text.
   */
  attachment?(path: string): string;
}
