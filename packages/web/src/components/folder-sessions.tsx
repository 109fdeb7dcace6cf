import { useEffect, useState } from 'react';
import { SessionResumed, type SessionSummary, SessionsPage } from '@collie/protocol';
import { paneHref } from '../lib/routes';
import { AGENT_NAMES, ago } from '../lib/sessions/session-words';
import { bridgeJson } from '../lib/workbench/bridge-json';

/** How many of the folder's sessions New offers (newest first); the Sessions page has the rest. */
const SHOWN = 5;

/**
 * On New pane, under the chosen folder: "Resume a session", the folder's newest past sessions
 * (GET /api/sessions?folder=…); tapping one resumes it in a new pane (or opens the pane that
 * runs it now), as the Sessions page's "Resume in a new pane" does.
 */
export function FolderSessions({ folder }: { readonly folder: string }) {
  const [list, setList] = useState<{ folder: string; sessions: SessionSummary[] } | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    void bridgeJson(`/api/sessions?folder=${encodeURIComponent(folder)}&limit=${SHOWN}`, SessionsPage).then((r) => {
      if (live) setList(r.ok ? { folder, sessions: r.value.sessions } : null);
    });
    return () => {
      live = false;
    };
  }, [folder]);
  const sessions = list?.folder === folder ? list.sessions : [];
  if (sessions.length === 0) return null;
  const resume = async (s: SessionSummary) => {
    if (s.pane) return void (window.location.hash = paneHref(s.pane));
    setBusy(true);
    const r = await bridgeJson(`/api/sessions/${encodeURIComponent(s.agent)}/${encodeURIComponent(s.id)}/resume`, SessionResumed, {});
    setBusy(false);
    if (r.ok) window.location.hash = paneHref(r.value.pane);
    else setSaid(r.message);
  };
  const now = Date.now();
  return (
    <fieldset className="new-set">
      <legend className="new-legend">Resume a session</legend>
      <ul className="rows new-choices" aria-label="Sessions in this folder">
        {sessions.map((s) => (
          <li key={`${s.agent}/${s.id}`}>
            <button type="button" className="new-choice folder-session" disabled={busy} onClick={() => void resume(s)}>
              <span className="new-choice-main">
                <span className="new-choice-name">{s.title ?? s.id}</span>
                <span className="new-choice-meta">
                  {AGENT_NAMES[s.agent] ?? s.agent} · {ago(s.updated, now)}
                  {s.pane ? ' · running now' : ''}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {said ? (
        <p className="new-note" role="status">
          {said}
        </p>
      ) : null}
    </fieldset>
  );
}
