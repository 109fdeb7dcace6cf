import type { BoxAction, SendReceipt } from '@collie/protocol';
import { useState } from 'react';
import { postBoxAction } from '../lib/box-api';
import { newRequestId } from '../lib/request-ids';

/**
 * A send that could not be checked left its text in the agent's input box: say what is
 * there and offer "Send it" (Enter) and "Clear it". The bridge acts only while the box still
 * holds exactly that text; the send's receipt then says how it ended and this goes away.
 */
export function LeftInBox({ paneId, receipts }: { readonly paneId: string; readonly receipts: readonly SendReceipt[] }) {
  const [busy, setBusy] = useState<BoxAction | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const send = [...receipts].reverse().find((r) => r.final && r.left !== undefined);
  if (!send?.left) return null;
  const act = (action: BoxAction) => {
    if (busy) return;
    setBusy(action);
    setProblem(null);
    void postBoxAction(paneId, action, send.requestId, newRequestId()).then((result) => {
      setBusy(null);
      if (result.kind !== 'receipt') setProblem('No answer from the bridge. Try again.');
      else if (result.receipt.state === 'not_sent') setProblem(`${result.receipt.outcome.replace(/^not sent: /, '')}.`);
    });
  };
  return (
    <section className="left-in-box" aria-label="Text left in the box">
      <p className="left-in-box-title">Still in the box</p>
      <p className="left-in-box-text">{send.left}</p>
      {problem ? <p className="left-in-box-problem">{problem}</p> : null}
      <div className="left-in-box-actions">
        <button type="button" className="left-in-box-send" disabled={busy !== null} onClick={() => act('submit')}>
          {busy === 'submit' ? 'Sending…' : 'Send it'}
        </button>
        <button type="button" className="left-in-box-clear" disabled={busy !== null} onClick={() => act('clear')}>
          {busy === 'clear' ? 'Clearing…' : 'Clear it'}
        </button>
      </div>
    </section>
  );
}
