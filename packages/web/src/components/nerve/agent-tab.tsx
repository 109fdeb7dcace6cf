import { useEffect, useRef, useState } from 'react';
import type { AgentRecord, AgentTranscriptEvent } from '@collie/protocol';
import { nerveApi } from '../../lib/nerve/api';
import { transcriptLine } from '../../lib/nerve/transcript';
import { AgentLine } from './agent-line';

export interface AgentTabProps {
  readonly sessionId: string;
  readonly r: AgentRecord;
  /** Moves with each `agent.updated` of this agent: a subscribed tab reads what is new. */
  readonly tick: number;
  /** At most 8 tabs follow their transcript; the others pause until you look at them. */
  readonly subscribed: boolean;
  readonly now: number;
  readonly quietAfterMinutes: number;
  readonly stop: (id: string) => void;
}

/** An agent's tab: its line, then its live transcript (a shell's output, a workflow's steps). */
export function AgentTab({ sessionId, r, tick, subscribed, now, quietAfterMinutes, stop }: AgentTabProps) {
  const [events, setEvents] = useState<AgentTranscriptEvent[]>([]);
  const [failed, setFailed] = useState<string | null>(null);
  const last = useRef(-1);
  const busy = useRef(false);
  // A move of the record while a read is under way: read once more when it is done.
  const again = useRef(false);
  const [reads, setReads] = useState(0);
  useEffect(() => {
    last.current = -1;
    setEvents([]);
  }, [r.agent_id]);
  useEffect(() => {
    if (!subscribed) return;
    if (busy.current) {
      again.current = true;
      return;
    }
    busy.current = true;
    void nerveApi.transcript(sessionId, r.agent_id, last.current).then((got) => {
      busy.current = false;
      if (again.current) {
        again.current = false;
        setReads((n) => n + 1);
      }
      if (!got.ok) return setFailed(got.message);
      setFailed(null);
      const fresh = got.value.events.filter((e) => e.seq > last.current);
      if (fresh.length === 0) return;
      last.current = fresh[fresh.length - 1]!.seq;
      setEvents((had) => [...had, ...fresh].slice(-2000));
      // Nerve answers 500 lines a page: a full page means there is more to read.
      if (got.value.events.length >= 500) setReads((n) => n + 1);
    });
  }, [sessionId, r.agent_id, tick, subscribed, reads]);
  return (
    <section className="agent-tab" aria-label={`${r.name} transcript`}>
      <AgentLine r={r} now={now} quietAfterMinutes={quietAfterMinutes} open={null} stop={stop} />
      {r.prompt ? <p className="agent-prompt">{r.prompt}</p> : null}
      {!subscribed ? <p className="durable-note">Paused: eight tabs follow their agents at once. Open this tab to follow it.</p> : null}
      {failed ? <p className="durable-note">{failed}</p> : null}
      <ol className="agent-transcript">
        {events.map((e) => {
          const line = transcriptLine(e);
          return line ? (
            <li key={e.seq} className={`tl tl-${e.kind}`}>
              <span className="tl-kind">{line.label}</span>
              <span className="tl-text">{line.text}</span>
            </li>
          ) : null;
        })}
      </ol>
      {events.length === 0 && !failed ? <p className="durable-note">Nothing in the transcript yet.</p> : null}
      {r.summary ? <p className="agent-summary">{r.summary}</p> : null}
    </section>
  );
}
