import type { Pane, SendReceipt } from '@collie/protocol';
import { type ReactNode, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { sentText } from '../../lib/edit-bus';
import { withSends } from '../../lib/pane-chat/sends';
import { SendItem } from '../recent-sends';
import { ChatItem } from '../chat/chat-item';
import { ChatText, type RenderText } from '../chat/chat-text';
import { MessageCard, MessageChip } from '../walky/message-card';
import { WalkyToolItem } from '../walky/walky-tool';
import { matches } from '../../lib/pane-chat/history';
import { splitUploads } from '../../lib/workbench/uploads-api';
import { Picture } from './picture';
import { AgentPictures } from './agent-pictures';
import { itemWords } from '../../lib/pane-chat/words';
import type { PaneChatState } from '../../lib/pane-chat/chat-state';
import { chatTimeline } from '../../lib/walky/chat';
import { splitIds } from '../../lib/walky/ids';
import { senderLabel } from '../../lib/walky/messages';
import { openMessages } from '../../lib/walky/sheet-bus';
import { usePaneWalky } from '../../lib/walky/store';
import { walkyTool } from '../../lib/walky/tool';

/**
 * A pane's Chat: the agent's conversation from its transcript, with the same item components as
 * durable agents. It is part of the page (no scroller of its own): the page follows new items
 * while you read at the foot (`useFollowFoot`) and keeps your place when you have scrolled up;
 * History loaded above keeps the item you read where it was; search keeps the items that match.
 * Each of the person's sends carries its receipt: on the bubble that echoes it, or as its own
 * bubble while the transcript has no such bubble (held, queued, refused, keys, answers).
 * A walky message the log says reached this pane shows as its card at its time (the same card
 * as under the screen); for a crew member's pane on a lead, the log is that member's own, read
 * through the lead; when the log cannot be read, no card. A tool card that ran `collie
 * walky` wears the "walky talky" badge, with the receipt line or the message card from the log.
 * A message id the log holds, anywhere in the Chat's text (the agent's replies and markdown,
 * code spans and blocks, tool output, your own lines), is a chip that opens the Messages sheet
 * on it; any other id stays text.
 */
export function PaneChatView({
  chat,
  older,
  pane,
  receipts = [],
}: {
  readonly chat: PaneChatState | null;
  readonly older: () => Promise<void>;
  readonly pane?: Pick<Pane, 'id' | 'token'>;
  readonly receipts?: readonly SendReceipt[];
}) {
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const [query, setQuery] = useState('');
  const [loading, setLoading] = useState(false);
  const items = chat?.items ?? [];
  const paneId = pane?.id;
  // A member's pane on a lead: its cards come from that member's log, read again as the Chat grows.
  const walky = usePaneWalky(paneId, items.length);
  const token = pane?.token ?? '';
  // When the log cannot be read (or no pane is named), no card, no line: nothing is claimed.
  const logged = useMemo(() => (walky.phase === 'ready' && paneId !== undefined ? walky.messages : []), [walky, paneId]);
  const all = useMemo(() => chatTimeline(items, logged, { id: paneId ?? '', token }), [items, logged, paneId, token]);
  // Pictures the transcript carries, by item id: shown under their item.
  const pictures = useMemo(() => new Map(items.flatMap((it) => (it.images && it.images.length > 0 ? [[it.id, it.images] as const] : []))), [items]);
  const withPictures = (id: string, input: string | undefined, node: ReactNode) => {
    const images = pictures.get(id);
    return images && paneId !== undefined ? (
      <div key={id} className="chat-with-pictures">
        {node}
        <AgentPictures paneId={paneId} images={images} input={input} />
      </div>
    ) : (
      node
    );
  };
  const open = (id: string) => {
    if (paneId !== undefined) openMessages(paneId, id);
  };
  // The Chat's one text renderer: a file the phone attached shows as its picture or its name,
  // never the bridge's path; a message id the log holds becomes a chip; any other id stays text.
  const loggedIds = useMemo(() => new Set(logged.map((m) => m.id)), [logged]);
  const chipped = useMemo<RenderText>(
    () => (text) =>
      splitUploads(text).map((u, j) =>
        u.kind === 'upload' ? (
          <Picture key={`u${j}`} id={u.id} name={u.name} />
        ) : (
          splitIds(u.text).map((p, i) =>
            p.kind === 'id' && loggedIds.has(p.id) ? <MessageChip key={`${j}-${i}`} id={p.id} onOpen={(id) => paneId !== undefined && openMessages(paneId, id)} /> : p.kind === 'id' ? p.id : p.text,
          )
        ),
      ),
    [loggedIds, paneId],
  );
  const shown = useMemo(
    () => (query.trim() === '' ? all : all.filter((e) => matches(e.kind === 'item' ? itemWords(e.item) : `${senderLabel(e.message)} ${e.message.body}`, query))),
    [all, query],
  );

  const rows = useMemo(() => (query.trim() === '' && paneId !== undefined ? withSends(shown, receipts, sentText) : shown), [shown, receipts, query, paneId]);

  useLayoutEffect(() => {
    if (!anchor.current) return;
    // History came in above: keep the item you were reading where it was.
    const root = document.documentElement;
    window.scrollTo(0, anchor.current.top + (root.scrollHeight - anchor.current.height));
    anchor.current = null;
  }, [shown]);

  const loadOlder = async () => {
    if (loading || !chat?.before) return;
    setLoading(true);
    anchor.current = { height: document.documentElement.scrollHeight, top: window.scrollY };
    await older();
    setLoading(false);
  };
  // Scrolling up to the top of the Chat loads History, as the Load History button does.
  const [olderButton, setOlderButton] = useState<HTMLButtonElement | null>(null);
  const load = useRef(loadOlder);
  load.current = loadOlder;
  useEffect(() => {
    if (!olderButton) return;
    let lastY = window.scrollY;
    let up = false;
    const onScroll = () => {
      up = window.scrollY < lastY;
      lastY = window.scrollY;
    };
    const seen = new IntersectionObserver((entries) => {
      if (up && entries.some((e) => e.isIntersecting)) void load.current();
    });
    seen.observe(olderButton);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      seen.disconnect();
      window.removeEventListener('scroll', onScroll);
    };
  }, [olderButton]);

  if (chat === null) return <p className="pane-chat-note">Reading the agent’s transcript…</p>;
  if (chat.source === null) return <p className="pane-chat-note">{chat.reason ?? 'No transcript found for this pane.'} The terminal shows it.</p>;
  return (
    <section className="pane-chat" aria-label="Chat">
      <div className="pane-chat-search">
        <input type="search" placeholder="Search this chat" aria-label="Search this chat" value={query} onChange={(e) => setQuery(e.target.value)} />
        {query.trim() ? <span className="pane-chat-count">{`${shown.length} of ${all.length}`}</span> : null}
      </div>
      <ChatText.Provider value={chipped}>
        <div className="pane-chat-scroll chat" role="log" aria-live="polite">
          {chat.before ? (
            <button type="button" ref={setOlderButton} className="button pane-chat-older" disabled={loading} onClick={() => void loadOlder()}>
              {loading ? 'Loading History…' : 'Load History'}
            </button>
          ) : (
            <p className="pane-chat-note">Start of the conversation</p>
          )}
          {rows.map((e) => {
            if (e.kind === 'send') return <SendItem key={`send-${e.receipt.requestId}`} paneId={paneId ?? ''} receipt={e.receipt} as="bubble" />;
            if (e.kind === 'sent')
              return (
                <div key={`sent-${e.receipt.requestId}`} className="chat-sent">
                  {e.entry.kind === 'item' ? <ChatItem item={e.entry.item} foldLines={12} /> : <MessageCard message={e.entry.message} onOpen={open} />}
                  <SendItem paneId={paneId ?? ''} receipt={e.receipt} as="on-bubble" />
                </div>
              );
            if (e.kind === 'item' && e.item.kind === 'tool') {
              const view = walkyTool(e.item.input, e.item.output, logged, { id: paneId ?? '', token });
              if (view) return <WalkyToolItem key={e.item.id} item={e.item} view={view} foldLines={12} onOpen={open} />;
            }
            return e.kind === 'item' ? (
              withPictures(e.item.id, e.item.kind === 'tool' ? e.item.input : undefined, <ChatItem key={e.item.id} item={e.item} foldLines={12} />)
            ) : (
              <MessageCard key={`wk-${e.message.id}`} message={e.message} onOpen={open} />
            );
          })}
          {shown.length === 0 ? <p className="pane-chat-note">{query.trim() ? 'Nothing in this chat matches.' : 'No messages yet.'}</p> : null}
        </div>
      </ChatText.Provider>
    </section>
  );
}
