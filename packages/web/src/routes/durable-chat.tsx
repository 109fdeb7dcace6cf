import { useState } from 'react';
import type { DurableQuestion, TapResult } from '@collie/protocol';
import { BackBar } from '../components/back-bar';
import { ChatItem } from '../components/chat/chat-item';
import { useClientState } from '../hooks/use-client';
import { postDurable } from '../lib/durable/api';
import { headerLine } from '../lib/durable/summary';
import { PERMISSION_WORDS, tapWords } from '../lib/durable/words';

const newId = () => crypto.randomUUID();

/** `#/durable/<agent>/<id>`: the conversation in Chat: header, thread, question cards, belt. */
export function DurableChat({ agent, id }: { readonly agent: string; readonly id: string }) {
  const { model, connection } = useClientState();
  const c = model?.durable.conversations.get(`${agent}\n${id}`);
  const items = model?.durable.threads.get(`${agent}\n${id}`) ?? [];
  const [said, setSaid] = useState<string | null>(null);
  if (!c) {
    return (
      <>
        <BackBar connection={connection} />
        <main className="page">
          <p>This conversation is not open.</p>
        </main>
      </>
    );
  }
  const belt = async (path: string, body: object) => setSaid(tapWords((await postDurable(path, { agent, conversationId: id, request_id: newId(), ...body })).outcome, null));
  return (
    <>
      <BackBar connection={connection} />
      <header className="durable-header">
        <div className="durable-line1">
          {c.title ?? 'Untitled conversation'} <span className="badge">Experimental</span>
        </div>
        <div className="durable-line2">{headerLine(c) ?? ''}</div>
      </header>
      <main className="page chat">
        {items.map((item) => (
          <ChatItem key={item.id} item={item} />
        ))}
        {c.questions.slice(0, 5).map((q) => (
          <QuestionCard key={`${q.id}:${q.version}`} agent={agent} conversationId={id} q={q} />
        ))}
        {said ? <p className="durable-note">{said}</p> : null}
      </main>
      <nav className="belt" aria-label="Belt">
        <button type="button" className="button" disabled={!c.working} onClick={() => void belt('stop', {})}>
          Stop
        </button>
        {c.buttons.map((b) => (
          <button key={b.id} type="button" className="button" disabled={b.disabled || b.busy} onClick={() => void belt('button', { buttonId: b.id, turn: c.turn })}>
            {b.label}
          </button>
        ))}
      </nav>
    </>
  );
}

function QuestionCard({ agent, conversationId, q }: { readonly agent: string; readonly conversationId: string; readonly q: DurableQuestion }) {
  const [result, setResult] = useState<TapResult | null>(null);
  const [requestId, setRequestId] = useState(newId);
  const [armed, setArmed] = useState(false);
  const send = async (answer: object) => {
    const r = await postDurable('answer', { agent, conversationId, questionId: q.id, version: q.version, answer, request_id: requestId });
    setResult(r);
    if (r.outcome !== 'unsure') setRequestId(newId());
  };
  const words = result ? tapWords(result.outcome, result.reason) : null;
  return (
    <section className="card durable-card" aria-label={q.title}>
      <p className="card-caption">Needs your answer · {agent}</p>
      <h3 className="card-title">{q.title}</h3>
      {q.body ? <p className="card-body">{q.body}</p> : null}
      {q.shortened ? <p className="card-note">Text shortened</p> : null}
      {q.kind === 'permission' ? (
        <div className="card-options">
          {q.options
            .filter((o) => o.action !== 'always' || (q.toolCall !== null && !q.shortened))
            .map((o) => (
              <button
                key={o.id}
                type="button"
                className="button option"
                onClick={() => {
                  if (o.action === 'always' && !armed) return setArmed(true);
                  void send({ kind: 'permission', option: o.id });
                }}
              >
                <span>{o.action === 'always' && armed ? `Tap again to always allow ${q.toolCall?.name ?? ''}` : PERMISSION_WORDS[o.action]}</span>
                <span className="option-quiet">{o.label}</span>
              </button>
            ))}
        </div>
      ) : q.kind === 'unknown' ? (
        <p className="card-note">This ask cannot be answered from the phone.</p>
      ) : (
        <p className="card-note">Answer this {q.kind} question in the durable agent.</p>
      )}
      {words ? <p className="card-note card-result">{words}</p> : null}
      {result?.outcome === 'unsure' ? (
        <button type="button" className="button" onClick={() => setResult(null)}>
          Try again
        </button>
      ) : null}
    </section>
  );
}
