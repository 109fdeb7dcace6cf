import { useEffect, useState } from 'react';
import { BackBar } from '../components/back-bar';
import { ChatItem } from '../components/chat/chat-item';
import { useClientState } from '../hooks/use-client';
import { postDurable, readConversation, type Read } from '../lib/durable/api';
import { backToAgent, tapWords } from '../lib/durable/words';
import { newRequestId } from '../lib/request-ids';
import { DurableHeader } from './durable-chat';

/** `#/durable-read/<agent>/<id>`: a closed conversation, read-only; Reopen when the durable agent can reopen one. */
export function DurableRead({ agent, id }: { readonly agent: string; readonly id: string }) {
  const { model, connection } = useClientState();
  const a = model?.durable.agents.get(agent);
  const [read, setRead] = useState<Read>({ state: 'loading' });
  const [said, setSaid] = useState<string | null>(null);
  useEffect(() => void readConversation(agent, id).then(setRead), [agent, id]);
  const reopen = async () => {
    const r = await postDurable('reopen', { agent, conversationId: id, request_id: newRequestId() });
    if (r.outcome === 'taken') window.location.hash = `#/durable/${encodeURIComponent(agent)}/${encodeURIComponent(r.conversationId ?? id)}`;
    else setSaid(tapWords(r.outcome, r.reason));
  };
  return (
    <>
      <BackBar connection={connection} to={backToAgent(agent)} />
      {read.state === 'ok' ? <DurableHeader c={read.got.conversation} /> : null}
      <main className="page chat durable-chat durable-readonly">
        {read.state === 'loading' ? <p className="durable-note">Reading the conversation…</p> : null}
        {read.state === 'failed' ? <p className="durable-note">The durable agent did not answer. Try again in a moment.</p> : null}
        {read.state === 'ok' ? read.got.items.map((item) => <ChatItem key={item.id} item={item} />) : null}
        {said ? (
          <p className="durable-note" role="status">
            {said}
          </p>
        ) : null}
      </main>
      {read.state === 'ok' && read.got.closed && a?.controls.reopen ? (
        <div className="durable-dock">
          <nav className="belt durable-belt" aria-label="Belt">
            <button type="button" className="button belt-button" onClick={() => void reopen()}>
              Reopen
            </button>
          </nav>
        </div>
      ) : null}
    </>
  );
}
