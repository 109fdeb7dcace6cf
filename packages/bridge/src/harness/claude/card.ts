import type { Dialog, DialogCard } from '@collie/protocol';
import { lastNonEmpty, type StyledLine } from '../screen/styled-line';
import type { ClaudeCardParts } from './card-parts';
import { readPromptCard } from './card-prompt';
import { readQuestionCard } from './card-question';
import { readSetupCard } from './setup';

export type { ClaudeCardParts } from './card-parts';

/** A dialog can fill the screen (a long plan), never more than this many rows. */
const DIALOG_ROWS = 120;

/**
 * Read the Claude Code dialog of kind `kind` (as the screen reader classified it) into a card,
 * without its signature; null when its options cannot be found.
 */
export function readClaudeCard(lines: readonly StyledLine[], kind: Dialog): Omit<DialogCard, 'signature'> | null {
  const end = lastNonEmpty(lines);
  const region = lines.slice(Math.max(0, end - DIALOG_ROWS + 1), end + 1);
  let parts: ClaudeCardParts | null;
  switch (kind) {
    case 'select':
    case 'multiselect':
    case 'wizard':
    case 'preview':
    case 'review':
      parts = readQuestionCard(region, kind === 'review');
      break;
    case 'permission':
    case 'plan':
    case 'trust':
    case 'menu':
      parts = readPromptCard(
        region.map((l) => l.text),
        kind,
      );
      break;
    case 'setup':
      parts = readSetupCard(region.map((l) => l.text));
      break;
  }
  if (!parts) return null;
  const { digitsReach, ...text } = parts;
  // A picker the user opened is shown, never answered from a card.
  return { kind, ...text, answerable: kind !== 'menu' && digitsReach };
}
