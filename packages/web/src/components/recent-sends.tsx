import type { SendReceipt } from '@collie/protocol';
import { useState } from 'react';
import { postCancel } from '../lib/cancel-api';
import { clockTime } from '../lib/down-words';
import { editInComposer, sentText } from '../lib/edit-bus';
import { KIND_WORDS, receiptLine } from '../lib/receipt-words';

/** How many of a pane's receipts the list shows. */
const SHOWN = 5;

/**
 * The pane's last sends, newest first, where the pane shows no Chat (its Terminal view; the
 * Chat carries each receipt on its bubble): what went, how it ended (or where it stands), and when.
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
          <SendItem key={receipt.requestId} paneId={paneId} receipt={receipt} as="li" />
        ))}
      </ul>
    </section>
  );
}

/**
 * One send and its receipt: an item of the list (`li`), or in the Chat its own bubble
 * (`bubble`) or the line under the person's bubble that echoes it (`on-bubble`, no summary).
 */
export function SendItem({ paneId, receipt, as }: { readonly paneId: string; readonly receipt: SendReceipt; readonly as: 'li' | 'bubble' | 'on-bubble' }) {
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
  const Tag = as === 'li' ? 'li' : 'div';
  return (
    <Tag className={`send${open ? ' send-open' : ''}${as === 'li' ? '' : ` send-${as}`}`}>
      {as === 'on-bubble' ? null : <span className="send-kind">{KIND_WORDS[receipt.kind]}</span>}
      {as === 'on-bubble' ? null : (
        <button type="button" className="send-summary" aria-expanded={open} onClick={() => setOpen(!open)} title={open ? 'Show less' : 'Show all'}>
          {open ? text : receipt.summary}
        </button>
      )}
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
    </Tag>
  );
}
