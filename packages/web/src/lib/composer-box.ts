import { MAX_SEND_CHARS, type SendReceipt } from '@collie/protocol';

/** The text a send carries: the box as typed, without the trailing blank lines a phone keyboard leaves. */
export function textToSend(box: string): string {
  return box.replace(/\s+$/u, '');
}

/** Why the box cannot be sent as it is, or null when it can. */
export function sendBlocker(box: string): string | null {
  const text = textToSend(box);
  if (text.trim() === '') return 'Write something to send.';
  if (text.length > MAX_SEND_CHARS) return `Too long: ${text.length} of ${MAX_SEND_CHARS} characters.`;
  return null;
}

/**
 * The box once a send's receipt is final. Typed text leaves the box (it is in the pane's own
 * box now, submitted or not), so it cannot go twice by accident; text that was not sent stays,
 * so nothing written is lost. Text the person changed since sending is theirs: it stays too.
 */
export function boxAfter(box: string, sent: string, receipt: SendReceipt): string {
  // A send that waits is the bridge's now: the box is free for the next one.
  if (receipt.state === 'scheduled') return textToSend(box) === sent ? '' : box;
  if (!receipt.final) return box;
  const arrived = receipt.state === 'typed' || receipt.state === 'not_submitted';
  return arrived && textToSend(box) === sent ? '' : box;
}
