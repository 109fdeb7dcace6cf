import { useCallback, useEffect, useState } from 'react';
import { SESSION_AGENTS, type SessionSummary, SessionsPage as SessionsAnswer } from '@collie/protocol';
import { BackBar } from '../components/back-bar';
import { Notice } from '../components/notice';
import { useClientState } from '../hooks/use-client';
import { paneHref, sessionHref } from '../lib/routes';
import { AGENT_NAMES, sessionMeta } from '../lib/sessions/session-words';
import { bridgeJson } from '../lib/workbench/bridge-json';
import { fetchCrew } from '../lib/crew-api';

type Filters = { readonly agent: string; readonly folder: string; readonly q: string; readonly machine: string };

function url(f: Filters, cursor: string | null): string {
  const p = new URLSearchParams();
  if (f.agent) p.set('agent', f.agent);
  if (f.folder) p.set('folder', f.folder);
  if (f.machine) p.set('machine', f.machine);
  if (f.q.trim()) p.set('q', f.q.trim());
  if (cursor) p.set('cursor', cursor);
  return `/api/sessions?${p.toString()}`;
}

/**
 * `#/sessions`: every past session of the agents on this machine, newest first, from their own
 * stores: filter by agent and folder, search words of titles and first messages, More for the
 * next page. A session that appears or changes in a store shows at once (`session.changed`).
 * On a crew's lead: every machine's sessions (each row names its machine), a Machine filter, and
 * a notice for a member that did not answer.
 */
export function SessionsPage() {
  const { connection, model } = useClientState();
  const [filters, setFilters] = useState<Filters>({ agent: '', folder: '', q: '', machine: '' });
  const [list, setList] = useState<{ sessions: SessionSummary[]; next: string | null; folders: string[]; away: SessionsAnswer['away']; error: string | null; loading: boolean }>({ sessions: [], next: null, folders: [], away: [], error: null, loading: true });
  // On a crew's lead: every machine's sessions, and a Machine filter.
  const [machines, setMachines] = useState<string[]>([]);
  useEffect(() => {
    void fetchCrew().then((r) => setMachines(r.ok && r.value.crew !== null && r.value.role === 'lead' ? r.value.machines.map((m) => m.name) : []));
  }, []);
  const sessionSeq = model?.sessionSeq ?? 0;
  const load = useCallback(async (f: Filters) => {
    const r = await bridgeJson(url(f, null), SessionsAnswer);
    setList((was) => (r.ok ? { ...r.value, folders: r.value.folders.length > 0 ? r.value.folders : was.folders, error: null, loading: false } : { ...was, error: r.message, loading: false }));
  }, []);
  useEffect(() => {
    const t = setTimeout(() => void load(filters), filters.q ? 200 : 0);
    return () => clearTimeout(t);
  }, [filters, load, sessionSeq]);
  const more = async () => {
    if (!list.next) return;
    const r = await bridgeJson(url(filters, list.next), SessionsAnswer);
    if (r.ok) setList((was) => ({ ...was, sessions: [...was.sessions, ...r.value.sessions], next: r.value.next }));
  };
  const now = Date.now();
  return (
    <>
      <BackBar connection={connection} />
      <main className="page page-new">
        <h1 className="changes-title">Sessions</h1>
        <div className="sessions-filters">
          <label>
            Agent{' '}
            <select aria-label="Agent" value={filters.agent} onChange={(e) => setFilters({ ...filters, agent: e.target.value })}>
              <option value="">All agents</option>
              {SESSION_AGENTS.map((a) => (
                <option key={a} value={a}>
                  {AGENT_NAMES[a]}
                </option>
              ))}
            </select>
          </label>
          <label>
            Folder{' '}
            <select aria-label="Folder" value={filters.folder} onChange={(e) => setFilters({ ...filters, folder: e.target.value })}>
              <option value="">All folders</option>
              {list.folders.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          </label>
          {machines.length > 0 ? (
            <label>
              Machine{' '}
              <select aria-label="Machine" value={filters.machine} onChange={(e) => setFilters({ ...filters, machine: e.target.value })}>
                <option value="">All machines</option>
                {machines.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <input type="search" aria-label="Search sessions" placeholder="Search titles and first messages" value={filters.q} onChange={(e) => setFilters({ ...filters, q: e.target.value })} />
        </div>
        {list.error ? <Notice title="No sessions to show.">{list.error}</Notice> : null}
        {list.away.map((a) => (
          <Notice key={a.machine} title={`${a.machine}’s sessions are not shown.`}>
            {a.reason}
          </Notice>
        ))}
        {list.loading ? (
          <Notice title="Reading the agents’ sessions…" />
        ) : list.sessions.length === 0 && !list.error ? (
          <Notice title="No sessions.">None of Claude Code, Codex, Gemini CLI, OpenCode or pi has a session here{filters.q || filters.folder || filters.agent || filters.machine ? ' that matches' : ''}.</Notice>
        ) : (
          <ul className="rows new-choices" aria-label="Sessions">
            {list.sessions.map((s) => (
              <li key={`${s.machine ?? ''}/${s.agent}/${s.id}`} className="session-row">
                <a className="new-choice-main" href={sessionHref(s.agent, s.id, s.machine)}>
                  <span className="new-choice-name">{s.title ?? '(no message yet)'}</span>
                  <span className="new-choice-meta">{sessionMeta(s, now)}</span>
                </a>
                {s.pane ? (
                  <a className="session-running" href={paneHref(s.pane)}>
                    Running
                  </a>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {list.next ? (
          <button type="button" className="composer-keys" onClick={() => void more()}>
            More
          </button>
        ) : null}
      </main>
    </>
  );
}
