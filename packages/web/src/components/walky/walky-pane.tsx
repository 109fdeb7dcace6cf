import type { Pane, PaneScreen, WalkyMessage } from '@collie/protocol';
import { useEffect, useMemo, useState } from 'react';
import { headerIds, idsIn, plainRows } from '../../lib/walky/ids';
import { received } from '../../lib/walky/messages';
import { onOpenMessages, openMessages } from '../../lib/walky/sheet-bus';
import { usePaneWalky } from '../../lib/walky/store';
import { MessageCard, MessageChip } from './message-card';
import { MessagesSheet } from './messages-sheet';
import './walky.css';

/** At most this many message cards under the screen; the sheet holds the rest. */
const CARDS = 3;

/**
 * Walky talky on a pane's page, under its screen: a card for each message on screen that the
 * log says reached this pane, a chip for every other id on screen the log holds, a quiet mark
 * for a header the log does not hold, and the Messages sheet. For a crew member's pane on a
 * lead the log is that member's own, read through the lead. When the log cannot be read, it
 * claims nothing.
 */
export function WalkyPane({ pane, frame }: { readonly pane: Pane; readonly frame: PaneScreen | null }) {
  const [sheet, setSheet] = useState<{ focus: string | null } | null>(null);
  useEffect(() => onOpenMessages(pane.id, (focus) => setSheet({ focus })), [pane.id]);
  const text = useMemo(() => (frame ? plainRows(frame.lines) : ''), [frame]);
  // A member's pane on a lead: its log is that member's, read again when the ids on screen change or the sheet opens.
  const again = useMemo(() => idsIn(text).join(' '), [text]);
  const walky = usePaneWalky(pane.id, `${again}|${sheet ? 'sheet' : ''}`);
  const open = (id: string) => openMessages(pane.id, id);
  const view = useMemo(() => {
    if (walky.phase !== 'ready') return null;
    const byId = new Map<string, WalkyMessage>(walky.messages.map((m) => [m.id, m]));
    const onScreen = idsIn(text);
    const cards = onScreen.flatMap((id) => {
      const m = byId.get(id);
      return m && received(m, pane.id) && m.state !== 'refused' ? [m] : [];
    });
    const shown = cards.sort((a, b) => b.at - a.at).slice(0, CARDS);
    const chips = onScreen.filter((id) => byId.has(id) && !shown.some((m) => m.id === id));
    const unlogged = headerIds(text).filter((id) => !byId.has(id));
    return { shown, chips, unlogged };
  }, [walky, text, pane.id]);
  return (
    <>
      {view && (view.shown.length > 0 || view.chips.length > 0 || view.unlogged.length > 0) ? (
        <section className="wk-pane" aria-label="Walky talky messages on screen">
          {view.shown.map((m) => (
            <MessageCard key={m.id} message={m} onOpen={open} />
          ))}
          {view.chips.length > 0 ? (
            <p className="wk-chips">
              {view.chips.map((id) => (
                <MessageChip key={id} id={id} onOpen={open} />
              ))}
            </p>
          ) : null}
          {view.unlogged.map((id) => (
            <p key={id} className="wk-unlogged">
              <span className="wk-id">{id}</span> no log record on this machine
            </p>
          ))}
        </section>
      ) : null}
      {sheet ? <MessagesSheet pane={pane} walky={walky} focus={sheet.focus} onClose={() => setSheet(null)} /> : null}
    </>
  );
}

/** The "Messages" item of the pane's menu. */
export function MessagesMenuItem({ paneId }: { readonly paneId: string }) {
  return (
    <button type="button" className="wk-menu-item" onClick={() => openMessages(paneId)}>
      Messages
    </button>
  );
}
