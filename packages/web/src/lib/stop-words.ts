import type { SendReceipt } from '@collie/protocol';
import type { StatusLine } from './receipt-words';

/**
 * What the header says after Stop: "Stopping…" while the key is on its way, "Stopped" once it
 * was pressed and the agent no longer works, the receipt's own words when it was not pressed
 * ("not sent: pane gone"), and "Pressed Stop; still working" when the agent carried on. Pure.
 */
export function stopWords(line: StatusLine | null, receipt: SendReceipt | null, working: boolean): string | null {
  if (line === null) return null;
  if (line.moving) return 'Stopping…';
  if (receipt?.state === 'typed') return working ? 'Pressed Stop; still working' : 'Stopped';
  return line.words;
}
