import { momentWords, type Pane } from '@collie/protocol';
import { useState } from 'react';
import type { SendLaterChoice } from '../lib/pane-request';
import './send-later.css';

/** The next moment the phone's clock shows `hhmm` (`02:00`): today if it is still ahead, else tomorrow. */
export function nextClock(hhmm: string, now = new Date()): Date | null {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm);
  if (!m) return null;
  const t = new Date(now);
  t.setHours(Number(m[1]), Number(m[2]), 0, 0);
  if (t.getTime() <= now.getTime()) t.setDate(t.getDate() + 1);
  return t;
}

/**
 * "Send later…" from the composer's long-press menu: at a time on the phone's clock, in N
 * hours, or when the pane's usage limit resets (offered only when the pane has a reset time).
 * The bridge keeps the send and types it then; its receipt reads "scheduled for 02:00".
 */
export function SendLater({ pane, onPick, onClose }: { readonly pane: Pane | undefined; readonly onPick: (later: SendLaterChoice) => void; readonly onClose: () => void }) {
  const [clock, setClock] = useState('02:00');
  const [hours, setHours] = useState('2');
  const reset = pane?.usage?.limit?.resetsAt;
  const at = nextClock(clock);
  const inHours = Number(hours);
  const hoursOk = Number.isFinite(inHours) && inHours > 0 && inHours <= 168;
  return (
    <div className="send-later" role="group" aria-label="Send later">
      <div className="send-later-row">
        <label htmlFor="send-later-at">At</label>
        <input id="send-later-at" type="time" value={clock} onChange={(e) => setClock(e.currentTarget.value)} />
        <button type="button" className="send-later-go" disabled={at === null} onClick={() => at && onPick({ at: at.toISOString() })}>
          Schedule
        </button>
      </div>
      <div className="send-later-row">
        <label htmlFor="send-later-in">In</label>
        <input id="send-later-in" type="number" inputMode="decimal" min="0.25" max="168" step="0.25" value={hours} onChange={(e) => setHours(e.currentTarget.value)} />
        <span>hours</span>
        <button type="button" className="send-later-go" disabled={!hoursOk} onClick={() => onPick({ at: new Date(Date.now() + inHours * 3_600_000).toISOString() })}>
          Schedule
        </button>
      </div>
      {reset ? (
        <button type="button" className="send-later-go send-later-reset" onClick={() => onPick({ when: 'limit-reset' })}>
          When the limit resets ({momentWords(reset)})
        </button>
      ) : null}
      <button type="button" className="send-later-close" onClick={onClose}>
        Cancel
      </button>
    </div>
  );
}
