import { useRef, useState } from 'react';
import type { DurableConversation, DurableItem } from '@collie/protocol';
import { BackBar } from '../components/back-bar';
import { ChatItem } from '../components/chat/chat-item';
import { DurableBelt } from '../components/durable/durable-belt';
import { DurableComposer } from '../components/durable/durable-composer';
import { DurableMenu } from '../components/durable/durable-menu';
import { OwnLineRow, WorkingDots } from '../components/durable/own-line';
import { QuestionCard } from '../components/durable/question-card';
import { useOwnLines } from '../components/durable/use-own-lines';
import { useQuestionTaps } from '../components/durable/use-question-taps';
import { useNerveChat } from '../components/nerve/use-nerve-chat';
import { useClientState } from '../hooks/use-client';
import { MayNotSend } from '../components/may-not-send';
import { useFollowFoot } from '../hooks/use-follow-foot';
import { useNow } from '../hooks/use-now';
import { postDurable } from '../lib/durable/api';
import { cardViews, inOrder, placeCards, seenOrder } from '../lib/durable/cards';
import { cardsToShow } from '../lib/durable/countdown';
import { pendingLines, placeOwnLines, queuePreview, refusedEchoes, showsWorking } from '../lib/durable/own-lines';
import { headerLine } from '../lib/durable/summary';
import { agentShownName, backToAgent, tapWords } from '../lib/durable/words';
import { newRequestId } from '../lib/request-ids';

/** The header: line 1 the title and the Experimental badge (and the menu), line 2 progress, subtitle or workspace. */
export function DurableHeader({ c, menu }: { readonly c: DurableConversation; readonly menu?: React.ReactNode }) {
  return (
    // A region of its own, not a second banner beside the top bar's.
    <section className="durable-header" aria-label="Conversation">
      <div className="durable-head-row">
        <h1 className="durable-line1">
          <span className="durable-title-text">{c.title ?? 'Untitled conversation'}</span> <span className="badge">Experimental</span>
        </h1>
        {menu}
      </div>
      <div className="durable-line2">{headerLine(c) ?? ''}</div>
    </section>
  );
}

const TIMED = new Set(['reply', 'thinking', 'notice', 'markdown']);

/** A settled reply, thinking, notice or markdown item shows its time; one still growing has its cursor and no time. */
function TimedItem({ item }: { readonly item: DurableItem }) {
  if (!TIMED.has(item.kind)) return <ChatItem item={item} />;
  return (
    <div className="chat-timed">
      <ChatItem item={item} />
      {item.final ? <time className="chat-time">{new Date(item.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}</time> : null}
    </div>
  );
}

/**
 * `#/durable/<agent>/<id>`: the conversation in Chat, its only view: header, thread with the
 * question cards under their tool calls, your own lines, the composer and the belt. No
 * Terminal, no tabs, no Keys, Type or Quick: a durable agent has no screen.
 */
export function DurableChat({ agent, id }: { readonly agent: string; readonly id: string }) {
  const { model, connection, maySend } = useClientState();
  const a = model?.durable.agents.get(agent);
  const c = model?.durable.conversations.get(`${agent}\n${id}`);
  const thread = model?.durable.threads.get(`${agent}\n${id}`) ?? [];
  const [text, setText] = useState('');
  const [said, setSaid] = useState<string | null>(null);
  const [allCards, setAllCards] = useState(false);
  const now = useNow();
  const { taps, send, retry } = useQuestionTaps(agent, id, c?.updatedAt ?? 0);
  const own = useOwnLines(agent, id, setText);
  const order = useRef<readonly string[]>([]);
  const input = useRef<HTMLTextAreaElement>(null);
  const submitRef = useRef<() => void>(() => undefined);
  const { chatRef, dockRef } = useFollowFoot();
  // A Nerve session (the durable agent that calls itself nerve): its roster views.
  const nerve = useNerveChat({
    sessionId: id,
    enabled: a?.runtime === 'nerve' && c !== undefined,
    now,
    text,
    setText,
    sendText: () => submitRef.current(),
    focusInput: () => input.current?.focus(),
    forget: (t) => own.forget(t),
  });
  if (!c || !a) {
    return (
      <>
        <BackBar connection={connection} to={backToAgent(agent)} />
        <main className="page">
          <p className="durable-note">This conversation is not open.</p>
          <a className="button" href={`#/durable/${encodeURIComponent(agent)}`}>
            {agentShownName(agent)}
          </a>
        </main>
      </>
    );
  }
  const call = (path: string, body: object) => postDurable(path, { agent, conversationId: id, request_id: newRequestId(), ...body });
  const belt = async (path: string, body: object) => {
    setSaid(null);
    setSaid(tapWords((await call(path, body)).outcome, null));
  };
  const close = async () => {
    const r = await call('close', {});
    if (r.outcome === 'taken') window.location.hash = `#/durable/${encodeURIComponent(agent)}`;
    else setSaid(tapWords(r.outcome, r.reason));
  };
  order.current = seenOrder(order.current, c.questions);
  const views = inOrder(cardViews(c.questions, taps, c.updatedAt), order.current);
  const { shown, more } = cardsToShow(views, allCards);
  const items = refusedEchoes(own.lines, thread);
  // A message waiting in Nerve's queue shows as its chip only.
  const queued = new Set(nerve?.queued ?? []);
  const pending = pendingLines(own.lines, items, now).filter((l) => l.state === 'not_sent' || !queued.has(queuePreview(l.text)));
  const submit = (steer: boolean) => {
    own.send(text, steer, items.length, items.at(-1)?.id ?? null);
    setText('');
  };
  submitRef.current = () => {
    if (text.trim()) submit(false);
  };
  return (
    <>
      <BackBar connection={connection} to={backToAgent(agent)} />
      <DurableHeader c={c} menu={<DurableMenu close={a.controls.close ? () => void close() : null} />} />
      {nerve?.tabs}
      {nerve?.panel}
      <main ref={chatRef} className={`page chat durable-chat${nerve ? ' nerve-chat' : ''}${nerve?.panelOpen ? ' nerve-panel-open' : ''}`}>
        {nerve?.body ??
          placeOwnLines(placeCards(items, shown), (row) => (row.kind === 'item' ? row.item.id : null), pending).map((row) =>
            'requestId' in row ? (
              <OwnLineRow key={row.requestId} line={row} again={own.again} />
            ) : row.kind === 'item' ? (
              (nerve?.line(row.item) ?? <TimedItem key={`i:${row.item.id}`} item={row.item} />)
            ) : (
              <QuestionCard key={`q:${row.card.question.id}`} agent={agent} view={row.card} send={(answer) => send(row.card.question, answer)} retry={() => retry(row.card.question.id)} />
            ),
          )}
        {more > 0 ? (
          <button type="button" className="button show-more" onClick={() => setAllCards(true)}>
            Show {more} more
          </button>
        ) : null}
        {nerve?.body ? pending.map((l) => <OwnLineRow key={l.requestId} line={l} again={own.again} />) : null}
        {showsWorking(pending, items) ? <WorkingDots /> : null}
        {said ? (
          <p className="durable-note" role="status">
            {said}
          </p>
        ) : null}
        {nerve?.said}
      </main>
      {/* The page's foot (a landmark): the composer and the belt. */}
      <footer ref={dockRef} className={`durable-dock${nerve?.panelOpen ? ' nerve-panel-open' : ''}`}>
        {nerve?.dock}
        {!maySend ? (
          <MayNotSend />
        ) : a.controls.message ? (
          <DurableComposer
            text={text}
            setText={(t) => {
              setText(t);
              own.clearSent();
            }}
            send={() => submit(false)}
            sent={own.sent}
            inputRef={input}
            {...(nerve ? { onKeyDown: nerve.onInputKey } : {})}
          />
        ) : null}
        {maySend ? <DurableBelt c={c} controls={a.controls} text={text} steer={() => submit(true)} stop={() => void belt('stop', {})} button={(buttonId) => void belt('button', { buttonId, turn: c.turn })} stopSlot={nerve?.stop} /> : null}
      </footer>
    </>
  );
}
