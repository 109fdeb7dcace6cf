import { useEffect, useState } from 'react';
import { SessionChat, SessionResumed } from '@collie/protocol';
import { BackBar } from '../components/back-bar';
import { Notice } from '../components/notice';
import { PaneChatView } from '../components/pane-chat/pane-chat-view';
import { useClientState } from '../hooks/use-client';
import type { PaneChatState } from '../lib/pane-chat/chat-state';
import { paneHref, sessionsHref } from '../lib/routes';
import { sessionMeta } from '../lib/sessions/session-words';
import { bridgeJson } from '../lib/workbench/bridge-json';

const base = (agent: string, id: string) => `/api/sessions/${encodeURIComponent(agent)}/${encodeURIComponent(id)}`;
/** In a crew, on the lead: the machine that holds the session reads and resumes it. */
const on = (machine: string | null, more = '') => (machine ? `?machine=${encodeURIComponent(machine)}${more ? `&${more}` : ''}` : more ? `?${more}` : '');

/**
 * `#/sessions/<agent>/<id>`: one past session's conversation, read-only, in the pane Chat's own
 * view; "Resume in a new pane" runs the agent's resume command in its folder, or "Open its pane"
 * when a pane runs it now.
 */
export function SessionPage({ agent, id, machine = null }: { readonly agent: string; readonly id: string; readonly machine?: string | null }) {
  const { connection } = useClientState();
  const [chat, setChat] = useState<{ data: SessionChat | null; error: string | null }>({ data: null, error: null });
  const [said, setSaid] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void bridgeJson(`${base(agent, id)}${on(machine)}`, SessionChat).then((r) => setChat(r.ok ? { data: r.value, error: null } : { data: null, error: r.message }));
  }, [agent, id, machine]);
  const data = chat.data;
  const state: PaneChatState | null = data ? { source: { agent, path: '', session: id }, reason: data.items.length === 0 ? 'Nothing said in this session yet.' : null, items: data.items, before: data.before, generation: 0 } : null;
  const older = async () => {
    if (!data?.before) return;
    const r = await bridgeJson(`${base(agent, id)}${on(machine, `before=${data.before}`)}`, SessionChat);
    if (r.ok) setChat({ data: { ...data, items: [...r.value.items, ...data.items], before: r.value.before }, error: null });
  };
  const resume = async () => {
    setBusy(true);
    const r = await bridgeJson(`${base(agent, id)}/resume${on(machine)}`, SessionResumed, {});
    setBusy(false);
    if (r.ok) window.location.hash = paneHref(r.value.pane);
    else setSaid(r.message);
  };
  const s = data?.session;
  return (
    <>
      <BackBar connection={connection} />
      <main className="page session-page">
        <p className="changes-facts">
          <a href={sessionsHref()}>Sessions</a>
        </p>
        <h1 className="changes-title">{s ? (s.title ?? 'Session') : 'Session'}</h1>
        {s ? <p className="changes-facts">{sessionMeta(s, Date.now())}</p> : null}
        {s ? (
          s.pane ? (
            <a className="composer-keys session-action" href={paneHref(s.pane)}>
              Open its pane
            </a>
          ) : (
            <button type="button" className="composer-keys session-action" disabled={busy} onClick={() => void resume()}>
              {busy ? 'Opening…' : 'Resume in a new pane'}
            </button>
          )
        ) : null}
        {said ? (
          <p className="new-note" role="status">
            {said}
          </p>
        ) : null}
        {chat.error ? <Notice title="This session cannot be read.">{chat.error}</Notice> : state === null ? <Notice title="Reading the session…" /> : <PaneChatView chat={state} older={older} />}
      </main>
    </>
  );
}
