import { useEffect, useState } from 'react';
import { BackBar } from '../components/back-bar';
import { ClosedRow, OpenRow } from '../components/durable/conversation-row';
import { Notice } from '../components/notice';
import { useClientState } from '../hooks/use-client';
import { useNow } from '../hooks/use-now';
import { fetchClosed } from '../lib/durable/api';
import { EMPTY_CLOSED, foldClosed, type ClosedList } from '../lib/durable/closed-list';
import { ordered } from '../lib/durable/summary';
import { STATE_WORDS, agentShownName } from '../lib/durable/words';

/**
 * `#/durable/<agent>`: its conversations the way a messaging app lists its chats: what waits
 * on you, then the other open ones, newest first (from the dashboard's own data, drawn at
 * once), then the Closed ones read from the agent once per visit and again when a
 * conversation opens or closes.
 */
export function DurableHome({ agent }: { readonly agent: string }) {
  const { model, connection } = useClientState();
  const now = useNow();
  const a = model?.durable.agents.get(agent);
  const open = ordered([...(model?.durable.conversations.values() ?? [])].filter((c) => c.agent === agent));
  const [closed, setClosed] = useState<ClosedList>(EMPTY_CLOSED);
  const history = a?.controls.history ?? false;
  const load = (cursor: string | null) => void fetchClosed(agent, cursor).then((r) => setClosed((was) => foldClosed(was, r, cursor !== null)));
  const openIds = open.map((c) => c.id).sort().join('\n');
  const mismatch = a?.state === 'version_mismatch';
  useEffect(() => {
    if (history || mismatch) load(null);
    // once per visit, and again when a conversation opens or closes (never on every update)
  }, [history, openIds, mismatch]);
  return (
    <>
      <BackBar connection={connection} />
      <main className="page durable-home">
        <div className="durable-head-row">
          <h1 className="durable-title">
            {agentShownName(agent)} <span className="badge">Experimental</span>
          </h1>
          {/* Refused for its wire version, it can open nothing: no New conversation under the caution. */}
          {mismatch ? null : (
            <a className="button durable-new-link" href={`#/durable-new/${encodeURIComponent(agent)}`}>
              New conversation
            </a>
          )}
        </div>
        {a?.caution ? (
          <Notice title="Version mismatch" caution>
            {a.caution}
          </Notice>
        ) : null}
        {a?.kept ? <Notice title="Not everything is shown">{a.kept}</Notice> : null}
        {a && (a.state === 'unreachable' || a.state === 'starting') ? <Notice title={STATE_WORDS[a.state]}>{a.problem ?? undefined}</Notice> : null}
        <ul className="rows durable-open">
          {open.map((c) => (
            <OpenRow key={c.id} agent={agent} c={c} now={now} />
          ))}
        </ul>
        {closed.rows.length ? <h2 className="section-title durable-closed-title">Closed</h2> : null}
        <ul className="rows">
          {closed.rows.map((c) => (
            <ClosedRow key={c.id} agent={agent} c={c} now={now} />
          ))}
        </ul>
        {closed.next ? (
          <button type="button" className="button durable-more" onClick={() => load(closed.next)}>
            Load more
          </button>
        ) : null}
        {closed.note ? (
          <p className="durable-note durable-foot" role="status">
            {closed.note}
          </p>
        ) : null}
        {closed.note && /Try again/.test(closed.note) ? (
          <button type="button" className="button durable-more" onClick={() => load(null)}>
            Try again
          </button>
        ) : null}
      </main>
    </>
  );
}
