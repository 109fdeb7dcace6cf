import { useEffect, useState } from 'react';
import { SessionResumed, type StoppedSession, StoppedSessions } from '@collie/protocol';
import { AGENT_NAMES } from '../lib/sessions/session-words';
import { bridgeJson } from '../lib/workbench/bridge-json';

/**
 * On the dashboard after a reboot or a crash: the sessions that ran in panes when the machine
 * stopped, each with Resume (a window named as before, the agent's own resume command), and
 * Resume all. Shown only when there are some.
 */
export function StoppedSessionsPanel() {
  const [list, setList] = useState<StoppedSession[]>([]);
  const [said, setSaid] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void bridgeJson('/api/sessions/stopped', StoppedSessions).then((r) => r.ok && setList(r.value.sessions));
  }, []);
  if (list.length === 0 && said === null) return null;
  const resume = async (s: StoppedSession): Promise<boolean> => {
    const r = await bridgeJson(`/api/sessions/${s.agent}/${encodeURIComponent(s.id)}/resume`, SessionResumed, {});
    if (!r.ok) setSaid(r.message);
    else setList((was) => was.filter((x) => !(x.agent === s.agent && x.id === s.id)));
    return r.ok;
  };
  const all = async () => {
    setBusy(true);
    for (const s of list) if (!(await resume(s))) break;
    setBusy(false);
  };
  const n = list.length;
  return (
    <section className="stopped-sessions" aria-label="Sessions that were running">
      {n > 0 ? (
        <>
          <p className="stopped-title">
            {n === 1 ? '1 session was' : `${n} sessions were`} running when this machine stopped
          </p>
          <ul className="rows new-choices">
            {list.map((s) => (
              <li key={`${s.agent}/${s.id}`} className="session-row">
                <span className="new-choice-main">
                  <span className="new-choice-name">{s.title ?? s.id}</span>
                  <span className="new-choice-meta">
                    {AGENT_NAMES[s.agent] ?? s.agent} · {s.window || s.label || s.folder}
                  </span>
                </span>
                <button type="button" className="composer-keys" disabled={busy} onClick={() => void resume(s)}>
                  Resume
                </button>
              </li>
            ))}
          </ul>
          {n > 1 ? (
            <button type="button" className="composer-keys session-action" disabled={busy} onClick={() => void all()}>
              Resume all
            </button>
          ) : null}
        </>
      ) : null}
      {said ? (
        <p className="new-note" role="status">
          {said}
        </p>
      ) : null}
    </section>
  );
}
