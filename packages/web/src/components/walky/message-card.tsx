import type { WalkyMessage } from '@collie/protocol';
import { knownWords, senderLabel } from '../../lib/walky/messages';
import './walky.css';

/**
 * A walky message that reached a pane: "Message from" the sender's label, its kind, "reply
 * to" the id it answers, the body from the log, and how the sender was known. Tapping it
 * opens the Messages sheet on it. Text nodes only.
 */
export function MessageCard({ message: m, onOpen, marked = false }: { readonly message: WalkyMessage; readonly onOpen?: (id: string) => void; readonly marked?: boolean }) {
  const inner = (
    <>
      <span className="wk-card-title">Message from {senderLabel(m)}</span>
      <span className="wk-card-meta">
        <span className="wk-kind">{m.from.kind}</span>
        {m.replyTo ? (
          <span className="wk-reply-to">
            reply to <span className="wk-id">{m.replyTo}</span>
          </span>
        ) : null}
        <span className="wk-known">{knownWords(m)}</span>
      </span>
      <span className="wk-card-body">{m.body}</span>
    </>
  );
  const cls = `wk-card${marked ? ' wk-marked' : ''}`;
  return onOpen ? (
    <button type="button" className={cls} data-message={m.id} onClick={() => onOpen(m.id)}>
      {inner}
    </button>
  ) : (
    <div className={cls} data-message={m.id}>
      {inner}
    </div>
  );
}

/** A message id the log holds, as a small chip that opens the Messages sheet on it. */
export function MessageChip({ id, onOpen }: { readonly id: string; readonly onOpen: (id: string) => void }) {
  return (
    <button type="button" className="wk-chip" onClick={() => onOpen(id)} aria-label={`Open message ${id}`}>
      {id}
    </button>
  );
}
