import type { CardText } from '../card-signature';

/** What a Claude dialog reader hands back: the card's text, and whether a key press reaches a choice now. */
export interface ClaudeCardParts extends Omit<CardText, 'kind'> {
  /**
   * The pointer sits where the card's keys choose: not in a text field (where a digit would be
   * typed: `Type something.`, the plan's feedback row, a preview's notes) and not on a row
   * digits skip (`Submit` / `Next` under a multi-select, `Chat about this`).
   */
  digitsReach: boolean;
}
