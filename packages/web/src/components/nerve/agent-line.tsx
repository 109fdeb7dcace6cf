import { useState } from 'react';
import type { AgentRecord } from '@collie/protocol';
import { costWords, isLive, isQuiet, statusWords, tokenWords } from '../../lib/nerve/roster';
import { formatDuration } from '../../lib/duration';

export interface AgentLineProps {
  readonly r: AgentRecord;
  readonly now: number;
  readonly quietAfterMinutes: number;
  /** Null: no [Open] (the line heads the agent's own tab). */
  readonly open: ((id: string) => void) | null;
  readonly stop: (id: string) => void;
  /** Nesting in the panel's Running group. */
  readonly depth?: number;
  readonly focused?: boolean;
  /** The panel's `x x`: the first x armed this line's stop. */
  readonly armed?: boolean;
}

/** The two-step [■]: the first tap arms it ("Stop?"), the second stops. */
export function StopTwice({ name, stop, armed }: { readonly name: string; readonly stop: () => void; readonly armed?: boolean }) {
  const [sure, setSure] = useState(false);
  const on = sure || armed === true;
  return (
    <button
      type="button"
      className={`button agent-stop${on ? ' agent-stop-armed' : ''}`}
      aria-label={on ? `Stop ${name}: tap again to stop` : `Stop ${name}`}
      onClick={(e) => {
        e.stopPropagation();
        if (on) {
          setSure(false);
          stop();
        } else setSure(true);
      }}
      onBlur={() => setSure(false)}
    >
      {on ? 'Stop?' : '■'}
    </button>
  );
}

/**
 * One agent: status, name, activity, elapsed time, tokens and ~$, [Open] and a two-step [■].
 * Inline at its spawn point in the chat, and as a row of the Agents panel.
 */
export function AgentLine({ r, now, quietAfterMinutes, open, stop, depth = 0, focused = false, armed = false }: AgentLineProps) {
  const quiet = isQuiet(r, now, quietAfterMinutes);
  const flags = [...r.attention.map((a) => a.replace(/_/g, ' ')), ...(quiet ? ['quiet'] : [])];
  return (
    <div className={`agent-line agent-${r.status}${focused ? ' agent-focused' : ''}`} style={depth ? { marginLeft: `${depth * 16}px` } : undefined} data-agent={r.agent_id}>
      <div className="agent-main">
        <div className="agent-head">
          <span className={`agent-status agent-status-${r.status}`}>{statusWords(r)}</span>
          <span className="agent-name">{r.name}</span>
          {flags.map((f) => (
            <span key={f} className="agent-flag">
              {f}
            </span>
          ))}
        </div>
        <div className="agent-sub">
          <span className="agent-kind">{r.kind.replace(/_/g, ' ')}</span>
          {r.activity ? <span className="agent-activity">{r.activity}</span> : null}
          <span className="elapsed">{formatDuration((r.ended_at ?? now) - (r.started_at ?? r.created_at))}</span>
          <span>{tokenWords(r.tokens)}</span>
          <span>{costWords(r.cost_usd)}</span>
          {r.runs > 1 ? <span>{r.runs} runs</span> : null}
        </div>
      </div>
      <div className="agent-actions">
        {open ? (
          <button type="button" className="button agent-open" onClick={() => open(r.agent_id)} aria-label={`Open ${r.name}`}>
            Open
          </button>
        ) : null}
        {isLive(r) && r.status !== 'stopping' ? <StopTwice name={r.name} stop={() => stop(r.agent_id)} armed={armed} /> : null}
      </div>
    </div>
  );
}
