import type { WalkySend } from '../../lib/walky/use-send';
import { receiptLine } from '../../lib/walky/messages';
import './walky.css';

/** "Message to <pane>: <state>", following the receipt to its final word, with Dismiss. */
export function ReceiptLine({ sending }: { readonly sending: WalkySend }) {
  const m = sending.message;
  if (!m && !sending.error) return null;
  return (
    <div className="wk-receipt" role="status">
      <span className={`wk-receipt-text${m?.state === 'refused' || sending.error ? ' wk-bad' : ''}`}>{m ? receiptLine(m) : `Message not sent: ${sending.error ?? ''}`}</span>
      <button type="button" className="wk-dismiss" onClick={sending.dismiss}>
        Dismiss
      </button>
    </div>
  );
}
