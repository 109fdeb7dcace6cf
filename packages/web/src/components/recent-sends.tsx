import type { SendReceipt } from '@collie/protocol';
import { KIND_WORDS, receiptLine } from '../lib/receipt-words';

/** How many of a pane's receipts the list shows. */
const SHOWN = 5;

/** The pane's last sends, newest first: what went, how it ended (or where it stands), and when. */
export function RecentSends({ receipts }: { readonly receipts: readonly SendReceipt[] }) {
  if (receipts.length === 0) return null;
  const shown = receipts.slice(-SHOWN).reverse();
  return (
    <section className="sends" aria-label="Recent sends">
      <h2 className="section-title">Recent sends</h2>
      <ul className="sends-list">
        {shown.map((receipt) => {
          const line = receiptLine(receipt);
          return (
            <li key={receipt.requestId} className="send">
              <span className="send-kind">{KIND_WORDS[receipt.kind]}</span>
              <span className="send-summary">{receipt.summary}</span>
              <span className={`send-outcome status-${line.tone}`}>{line.words}</span>
              <time className="send-time" dateTime={new Date(receipt.createdAt).toISOString()}>
                {clockTime(receipt.createdAt)}
              </time>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function clockTime(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}
