import { useEffect, useState } from 'react';
import type { ClosedConversation } from '@collie/protocol';
import { BackBar } from '../components/back-bar';
import { Notice } from '../components/notice';
import { useClientState } from '../hooks/use-client';
import { fetchClosed } from '../lib/durable/api';
import { ordered } from '../lib/durable/summary';

/** `#/durable/<agent>`: its conversations, waiting first, then open, then Closed. */
export function DurableHome({ agent }: { readonly agent: string }) {
  const { model, connection } = useClientState();
  const a = model?.durable.agents.get(agent);
  const open = ordered([...(model?.durable.conversations.values() ?? [])].filter((c) => c.agent === agent));
  const [closed, setClosed] = useState<ClosedConversation[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const history = a?.controls.history ?? false;
  const load = (cursor: string | null) =>
    void fetchClosed(agent, cursor).then((r) => {
      if (r === null) return setNote("Couldn't load the conversations. Try again.");
      switch (r.state) {
        case 'ok':
          setClosed((was) => (cursor ? [...was, ...r.conversations] : r.conversations));
          setNext(r.next);
          return setNote(null);
        case 'no_list':
          return setNote('This durable agent does not keep a list of its conversations.');
        case 'no_answer':
          return setNote('The durable agent did not answer. Try again in a moment.');
        case 'version_mismatch':
          return setNote(r.note);
        case 'failed':
          return setNote("Couldn't load the conversations. Try again.");
      }
    });
  const openCount = open.length;
  useEffect(() => {
    if (history || a?.state === 'version_mismatch') load(null);
    // once per visit, and again when a conversation opens or closes
  }, [history, openCount, a?.state]);
  return (
    <>
      <BackBar connection={connection} />
      <main className="page durable-home">
        <h1 className="durable-title">{agent} <span className="badge">Experimental</span></h1>
        {a?.caution ? <Notice title="Version mismatch">{a.caution}</Notice> : null}
        <ul className="rows">
          {open.map((c) => (
            <li key={c.id} className="row">
              <a className="row-link durable-conv" href={`#/durable/${encodeURIComponent(agent)}/${encodeURIComponent(c.id)}`}>
                <span className="durable-line1">
                  {c.title ?? 'Untitled conversation'} {c.questions.length ? <span className="count needs-you">{c.questions.length}</span> : null}
                </span>
                <span className="durable-line2">{c.questions[0]?.title ?? c.subtitle ?? ''}</span>
              </a>
            </li>
          ))}
        </ul>
        {closed.length ? <h2 className="section-title">Closed</h2> : null}
        <ul className="rows">
          {closed.map((c) => (
            <li key={c.id} className="row durable-closed">
              <span className="durable-line1">{c.title ?? 'Untitled conversation'}</span>
              <span className="durable-line2">{c.subtitle ?? ''}</span>
            </li>
          ))}
        </ul>
        {next ? (
          <button type="button" className="button" onClick={() => load(next)}>
            Load more
          </button>
        ) : null}
        {note ? <p className="durable-note">{note}</p> : null}
      </main>
    </>
  );
}
