import { useState } from 'react';
import { BackBar } from '../components/back-bar';
import { useClientState } from '../hooks/use-client';
import { postDurable } from '../lib/durable/api';
import { backToAgent, tapWords } from '../lib/durable/words';
import { newRequestId } from '../lib/request-ids';

/**
 * `#/durable-new/<agent>`: New conversation: the durable agent's starters. A starter takes no
 * folder and no text (the agent decides where it works); a tap opens its new conversation.
 */
export function DurableNew({ agent }: { readonly agent: string }) {
  const { model, connection } = useClientState();
  const a = model?.durable.agents.get(agent);
  const [said, setSaid] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const start = async (starterId: string) => {
    setBusy(starterId);
    setSaid(null);
    const r = await postDurable('starter', { agent, starterId, request_id: newRequestId() });
    setBusy(null);
    if (r.outcome === 'taken' && r.conversationId) window.location.hash = `#/durable/${encodeURIComponent(agent)}/${encodeURIComponent(r.conversationId)}`;
    else setSaid(tapWords(r.outcome, r.reason) ?? 'The durable agent opened nothing.');
  };
  const starters = a?.starters ?? [];
  return (
    <>
      <BackBar connection={connection} to={backToAgent(agent)} />
      <main className="page durable-new">
        <h1 className="durable-title">New conversation</h1>
        {starters.length === 0 ? (
          <p className="durable-note">This machine&apos;s durable agent offers no starters yet.</p>
        ) : (
          <ul className="rows durable-starters">
            {starters.map((s) => (
              <li key={s.id} className="row">
                <button type="button" className="row-link durable-starter" aria-busy={busy === s.id} onClick={() => busy === null && void start(s.id)}>
                  <span className="durable-line1">{s.label}</span>
                  {s.line ? <span className="durable-line2">{s.line}</span> : null}
                </button>
              </li>
            ))}
          </ul>
        )}
        {said ? (
          <p className="durable-note" role="status">
            {said}
          </p>
        ) : null}
      </main>
    </>
  );
}
