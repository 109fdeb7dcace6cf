import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useClientState } from '../../hooks/use-client';
import { useWalkySend } from '../../lib/walky/use-send';
import { ReceiptLine } from './receipt-line';
import './walky.css';

/** How long a press on Send is held before it offers "Send as message". */
export const LONG_PRESS_MS = 500;

export interface SendAsMessage {
  /** Spread on the Send button: a long press opens the offer instead of sending. */
  readonly pressProps: {
    onPointerDown(): void;
    onPointerUp(): void;
    onPointerLeave(): void;
    onContextMenu(e: { preventDefault(): void }): void;
  };
  /** Wraps Send's own click: the click that ends a long press does not send too. */
  guard(send: () => void): () => void;
  /** The offer and the receipt line, to render under the box. */
  readonly view: ReactNode;
}

/**
 * "Send as message" on a long press of the composer's Send: the text goes to this pane as the
 * operator's walky message, addressed with the token of the session the text was written for,
 * so a pane replaced since is refused.
 * A plain tap on Send still sends as before.
 */
export function useSendAsMessage(paneId: string, text: string, onSent: () => void, onLater?: () => void): SendAsMessage {
  const { model } = useClientState();
  const pane = model?.panes.get(paneId);
  const sending = useWalkySend();
  const [offer, setOffer] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const longPressed = useRef(false);
  const stop = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };
  useEffect(() => stop, []);
  // The session the text is written for: the pane's address, token and all, as it was when the
  // person began writing. A session that replaced it behind the open page is not that session, so
  // the bridge refuses the message `pane replaced` rather than typing it there.
  const [pinned, setPinned] = useState<string | null>(null);
  const writtenFor = text === '' ? null : (pinned ?? pane?.address ?? null);
  if (writtenFor !== pinned) setPinned(writtenFor);
  const canSend = pane !== undefined && pane.harness !== 'shell' && text.trim() !== '';
  const sendIt = async () => {
    setOffer(false);
    if (!pane) return;
    const m = await sending.send({ to: writtenFor ?? pane.address, body: text });
    if (m && m.state !== 'refused') onSent();
    // The person has seen the outcome and the session on screen now: a next press is for that one.
    else setPinned(pane.address);
  };
  return {
    pressProps: {
      onPointerDown() {
        longPressed.current = false;
        stop();
        if (!canSend) return;
        timer.current = setTimeout(() => {
          longPressed.current = true;
          setOffer(true);
        }, LONG_PRESS_MS);
      },
      onPointerUp: stop,
      onPointerLeave: stop,
      onContextMenu: (e) => e.preventDefault(),
    },
    guard: (send) => () => {
      if (longPressed.current) {
        longPressed.current = false;
        return;
      }
      send();
    },
    view: (
      <>
        {offer ? (
          <div className="wk-offer" role="menu" aria-label="Send options">
            <button type="button" role="menuitem" className="wk-primary" onClick={() => void sendIt()} disabled={sending.busy}>
              Send as message
            </button>
            {onLater ? (
              <button
                type="button"
                role="menuitem"
                className="wk-primary"
                onClick={() => {
                  setOffer(false);
                  onLater();
                }}
              >
                Send later…
              </button>
            ) : null}
            <button type="button" role="menuitem" className="wk-close" onClick={() => setOffer(false)}>
              Cancel
            </button>
          </div>
        ) : null}
        <ReceiptLine sending={sending} />
      </>
    ),
  };
}
