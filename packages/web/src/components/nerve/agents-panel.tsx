import { useEffect, useRef, useState } from 'react';
import type { AgentRecord } from '@collie/protocol';
import { GROUP_TITLES, groupAgents, isLive } from '../../lib/nerve/roster';
import { AgentLine } from './agent-line';

export interface AgentsPanelProps {
  readonly agents: readonly AgentRecord[];
  readonly now: number;
  readonly quietAfterMinutes: number;
  readonly open: (id: string) => void;
  readonly stop: (id: string) => void;
  readonly stopAll: () => void;
  readonly close: () => void;
  /** Esc: back to the message box (never stops the turn). */
  readonly back: () => void;
}

/**
 * The Agents panel: Needs attention → Running (children nested) → Done → Ended, [Stop all…]
 * in its header. Keys: ↑ ↓ Home End move, Enter opens the agent's tab, x x stops it, Esc goes
 * back to the message box.
 */
export function AgentsPanel({ agents, now, quietAfterMinutes, open, stop, stopAll, close, back }: AgentsPanelProps) {
  const groups = groupAgents(agents, now, quietAfterMinutes);
  const order = groups.flatMap((g) => g.views.map((v) => v.record.agent_id));
  const [focus, setFocus] = useState(0);
  const [armed, setArmed] = useState<string | null>(null);
  const [sure, setSure] = useState(false);
  const list = useRef<HTMLDivElement>(null);
  const at = Math.min(focus, Math.max(order.length - 1, 0));
  const focusedId = order[at] ?? null;
  // Roving focus: the focused agent's row holds the keyboard focus.
  useEffect(() => {
    const row = focusedId ? list.current?.querySelector<HTMLElement>(`[data-row="${focusedId}"]`) : null;
    (row ?? list.current)?.focus();
  }, [focusedId]);
  const live = agents.filter(isLive).length;
  const onKey = (e: React.KeyboardEvent) => {
    const move = (i: number) => {
      e.preventDefault();
      setArmed(null);
      setFocus(Math.max(0, Math.min(order.length - 1, i)));
    };
    if (e.key === 'ArrowDown') move(at + 1);
    else if (e.key === 'ArrowUp') move(at - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(order.length - 1);
    else if (e.key === 'Enter' && focusedId) {
      e.preventDefault();
      open(focusedId);
    } else if (e.key === 'x' && focusedId) {
      e.preventDefault();
      const r = agents.find((a) => a.agent_id === focusedId);
      if (!r || !isLive(r)) return;
      if (armed === focusedId) {
        setArmed(null);
        stop(focusedId);
      } else setArmed(focusedId);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      back();
    }
  };
  return (
    <aside className="agents-panel" aria-label="Agents">
      <header className="agents-panel-head">
        <h2>Agents</h2>
        <div className="agents-panel-actions">
          {live > 0 ? (
            <button
              type="button"
              className={`button agents-stop-all${sure ? ' agent-stop-armed' : ''}`}
              onClick={() => {
                if (sure) {
                  setSure(false);
                  stopAll();
                } else setSure(true);
              }}
              onBlur={() => setSure(false)}
            >
              {sure ? `Stop ${live} agent${live === 1 ? '' : 's'}?` : 'Stop all…'}
            </button>
          ) : null}
          <button type="button" className="button" onClick={close} aria-label="Close the Agents panel">
            ✕
          </button>
        </div>
      </header>
      <div className="agents-panel-list" ref={list} tabIndex={-1} onKeyDown={onKey}>
        {groups.length === 0 ? <p className="agents-empty">No agents in this session yet.</p> : null}
        {groups.map((g) => (
          <section key={g.name} className={`agents-group agents-group-${g.name}`} aria-label={GROUP_TITLES[g.name]}>
            <h3>
              {GROUP_TITLES[g.name]} <span className="agents-count">{g.views.length}</span>
            </h3>
            {g.views.map((v) => (
              <div
                key={v.record.agent_id}
                className="agent-row"
                data-row={v.record.agent_id}
                tabIndex={v.record.agent_id === focusedId ? 0 : -1}
                aria-current={v.record.agent_id === focusedId}
                onFocus={(e) => e.target === e.currentTarget && setFocus(order.indexOf(v.record.agent_id))}
              >
                <AgentLine r={v.record} now={now} quietAfterMinutes={quietAfterMinutes} open={open} stop={stop} depth={v.depth} focused={v.record.agent_id === focusedId} armed={armed === v.record.agent_id} />
              </div>
            ))}
          </section>
        ))}
      </div>
      <p className="agents-keys">↑ ↓ move · Enter open · x x stop · Esc back</p>
    </aside>
  );
}
