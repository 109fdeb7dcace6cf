import type { SendReceipt } from '@collie/protocol';
import { useState } from 'react';
import { postCancel } from '../lib/cancel-api';
import { clockTime } from '../lib/down-words';
import { editInComposer, sentText } from '../lib/edit-bus';
import { KIND_WORDS, receiptLine } from '../lib/receipt-words';

/** How many of a pane's receipts the list shows. */
const SHOWN = 5;

/**
 * The pane's last sends, newest first: what went, how it ended (or where it stands), and when.
 * A text still queued or held can be cancelled, or edited (cancelled, its text back in the
 * composer to send again); a long one expands on a tap.
 */
export function RecentSends({ paneId, receipts }: { readonly paneId: string; readonly receipts: readonly SendReceipt[] }) {
  if (receipts.length === 0) return null;
  const shown = receipts.slice(-SHOWN).reverse();
  return (
    <section className="sends" aria-labelledby="sends-title">
      <h2 className="section-title" id="sends-title">
        Recent sends
      </h2>
      <ul className="sends-list">
        {shown.map((receipt) => (
          <SendItem key={receipt.requestId} paneId={paneId} receipt={receipt} />
        ))}
      </ul>
    </section>
  );
}

function SendItem({ paneId, receipt }: { readonly paneId: string; readonly receipt: SendReceipt }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const line = receiptLine(receipt);
  const waiting = receipt.kind === 'text' && !receipt.final && (receipt.state === 'queued' || receipt.state === 'held' || receipt.state === 'scheduled');
  const text = sentText(receipt.requestId) ?? receipt.summary;
  const cancel = async (edit: boolean): Promise<void> => {
    setBusy(true);
    setProblem(null);
    const result = await postCancel(paneId, receipt.requestId);
    setBusy(false);
    if (result.kind === 'receipt') {
      if (edit) editInComposer(paneId, text);
      return;
    }
    setProblem(result.kind === 'refused' ? result.message.replace(/^bridge:\s*/, '') : 'Not sure the cancel arrived. Try again.');
  };
  return (
    <li className={`send${open ? ' send-open' : ''}`}>
      <span className="send-kind">{KIND_WORDS[receipt.kind]}</span>
      <button type="button" className="send-summary" aria-expanded={open} onClick={() => setOpen(!open)} title={open ? 'Show less' : 'Show all'}>
        {open ? text : receipt.summary}
      </button>
      <span className={`send-outcome status-${line.tone}`}>{line.words}</span>
      <time className="send-time" dateTime={new Date(receipt.createdAt).toISOString()}>
        {clockTime(receipt.createdAt)}
      </time>
      {waiting ? (
        <span className="send-actions">
          <button type="button" className="send-action" disabled={busy} onClick={() => void cancel(false)}>
            Cancel
          </button>
          <button type="button" className="send-action" disabled={busy} onClick={() => void cancel(true)}>
            Edit
          </button>
        </span>
      ) : null}
      {problem ? (
        <span className="send-problem" role="status">
          {problem}
        </span>
      ) : null}
    </li>
  );
}
