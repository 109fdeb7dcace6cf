import { OUTCOME, scheduledWords, type SendReceipt, type SendState } from '@collie/protocol';
import type { ActionResult } from './action-result';

/** Said when an answer reached a pane whose dialog is no longer the card that was tapped. */
export const ASK_CHANGED_WORDS = 'This ask changed. Read it again, then tap an answer.';

/** Said when a call got no answer we can read: the same tap sends the same request id again. */
export const UNSURE_WORDS = 'Not sure it arrived. Try again sends it once more.';

/** The code of a send refused on the phone because the bridge is not connected: nothing left it. */
export const NO_CONNECTION = 'no_connection';

/** Said at once for a send tapped while the bridge is not connected. */
export const NO_CONNECTION_WORDS = 'Not sent: no connection to the bridge; your text is kept';

/** While the call is on its way, before the bridge has answered. */
export const SENDING_WORDS = 'sending…';

/** How a status line looks: still moving, done, done with a catch, or not done. */
export type Tone = 'pending' | 'ok' | 'warn' | 'bad';

export interface StatusLine {
  readonly words: string;
  readonly tone: Tone;
  /** Whether the line can still change by itself (it follows the receipt live). */
  readonly moving: boolean;
}

const TONE: Readonly<Record<SendState, Tone>> = {
  scheduled: 'pending',
  queued: 'pending',
  held: 'pending',
  typing: 'pending',
  typed: 'ok',
  not_submitted: 'warn',
  not_sent: 'bad',
};

/**
 * A receipt as the person reads it: the bridge's outcome words (the contract shared with the
 * CLI), except a changed ask, which gets the sentence that says what to do.
 */
export function receiptLine(receipt: SendReceipt): StatusLine {
  // A send that waits: its time in this phone's zone ("scheduled for 02:00").
  if (receipt.state === 'scheduled' && receipt.scheduledFor) return { words: scheduledWords(receipt.scheduledFor, receipt.waitsFor), tone: 'pending', moving: true };
  const words = receipt.outcome.startsWith(OUTCOME.askChanged) ? ASK_CHANGED_WORDS : receipt.outcome;
  return { words, tone: TONE[receipt.state], moving: !receipt.final };
}

/**
 * The line for one attempt: `result` is null while the call is in flight; `live` is the
 * freshest receipt for its request id (the call's own, or a later one from the events).
 */
export function attemptLine(result: ActionResult | null, live: SendReceipt | null): StatusLine {
  if (live !== null) return receiptLine(live);
  if (result === null) return { words: SENDING_WORDS, tone: 'pending', moving: true };
  switch (result.kind) {
    case 'receipt':
      return receiptLine(result.receipt);
    case 'refused':
      return { words: result.code === NO_CONNECTION ? NO_CONNECTION_WORDS : refusalWords(result.message), tone: 'bad', moving: false };
    case 'unsure':
      return { words: UNSURE_WORDS, tone: 'warn', moving: false };
  }
}

/** The bridge's reason, without the subsystem prefix its messages carry for logs. */
function refusalWords(message: string): string {
  const reason = message.replace(/^bridge:\s*/i, '').trim();
  return reason === '' ? 'The bridge refused this.' : `Refused: ${reason}`;
}

/** A receipt's kind as a short word in the list of recent sends. */
export const KIND_WORDS: Readonly<Record<SendReceipt['kind'], string>> = {
  text: 'Text',
  keys: 'Keys',
  answer: 'Answer',
};
