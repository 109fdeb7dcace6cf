import type { Pane, WalkyMessage } from '@collie/protocol';
import { useEffect, useRef, useState } from 'react';
import { paneMessages, received, stateWords } from '../../lib/walky/messages';
import type { WalkyLoad } from '../../lib/walky/store';
import { useWalkySend } from '../../lib/walky/use-send';
import { MessageCard } from './message-card';
import { ReceiptLine } from './receipt-line';
import { useMaySend } from '../../hooks/use-client';
import './walky.css';

interface Props {
  readonly pane: Pane;
  readonly walky: WalkyLoad;
  /** The message to scroll to and mark, or null for the top. */
  readonly focus: string | null;
  readonly onClose: () => void;
}

/**
 * A pane's Messages sheet: what reached the pane and what it sent, newest first. A received
 * message from an agent has Reply next to it; a sent one is titled "To" its pane with the
 * receipt in words.
 */
export function MessagesSheet({ pane, walky, focus, onClose }: Props) {
  const list = walky.phase === 'ready' ? paneMessages(walky.messages, pane) : [];
  // A chip may name a message this pane neither got nor sent: it heads the list, marked.
  const named = walky.phase === 'ready' && focus && !list.some((m) => m.id === focus) ? walky.messages.find((m) => m.id === focus) : undefined;
  if (named) list.unshift(named);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = focus ? box.current?.querySelector(`[data-row="${focus}"]`) : null;
    el?.scrollIntoView({ block: 'center' });
  }, [focus, walky.phase]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="wk-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <section className="wk-sheet" role="dialog" aria-modal="true" aria-labelledby="wk-sheet-title">
        <header className="wk-sheet-head">
          <h2 id="wk-sheet-title">Messages</h2>
          <button type="button" className="wk-close" onClick={onClose}>
            Close
          </button>
        </header>
        <div className="wk-sheet-list" ref={box}>
          {walky.phase === 'unavailable' ? (
            <p className="wk-empty">This machine does not keep messages yet.</p>
          ) : walky.phase === 'loading' ? (
            <p className="wk-empty">Loading messages…</p>
          ) : list.length === 0 ? (
            <p className="wk-empty">No messages for this pane yet.</p>
          ) : (
            list.map((m) => <Row key={m.id} m={m} paneId={pane.id} marked={m.id === focus} />)
          )}
        </div>
      </section>
    </div>
  );
}

function Row({ m, paneId, marked }: { readonly m: WalkyMessage; readonly paneId: string; readonly marked: boolean }) {
  const [replying, setReplying] = useState(false);
  const maySend = useMaySend();
  if (!received(m, paneId)) {
    return (
      <div className={`wk-row wk-sent${marked ? ' wk-marked' : ''}`} data-row={m.id}>
        <p className="wk-card-title">To {m.to?.pane ?? m.asked}</p>
        <p className="wk-state">{stateWords(m)}</p>
        {m.body ? <p className="wk-card-body">{m.body}</p> : null}
        <p className="wk-id-line">
          <span className="wk-id">{m.id}</span>
        </p>
      </div>
    );
  }
  return (
    <div className="wk-row" data-row={m.id}>
      <MessageCard message={m} marked={marked} />
      <p className="wk-id-line">
        <span className="wk-id">{m.id}</span>
        {m.from.kind === 'agent' && maySend ? (
          <button type="button" className="wk-reply" onClick={() => setReplying(!replying)} aria-expanded={replying}>
            Reply
          </button>
        ) : null}
      </p>
      {replying ? <ReplyForm to={m} /> : null}
    </div>
  );
}

/**
 * A message on a crew member's pane (`@<member>/…`, its list read from that member's log): the
 * sender's address goes with the reply, so the lead takes it to that member when its own log
 * does not hold the message; the member's log then finds the pane.
 */
const viaMember = (m: WalkyMessage): { to?: string } => (m.to?.paneId.startsWith('@') && m.from.address ? { to: m.from.address } : {});

function ReplyForm({ to }: { readonly to: WalkyMessage }) {
  const [text, setText] = useState('');
  const sending = useWalkySend();
  return (
    <div className="wk-reply-form">
      <textarea className="wk-text" rows={2} value={text} aria-label={`Reply to ${to.id}`} onChange={(e) => setText(e.currentTarget.value)} />
      <button
        type="button"
        className="wk-primary"
        disabled={text.trim() === '' || sending.busy}
        onClick={() => void sending.send({ reply_to: to.id, body: text, ...viaMember(to) }).then((m) => m && m.state !== 'refused' && setText(''))}
      >
        Send reply
      </button>
      <ReceiptLine sending={sending} />
    </div>
  );
}
