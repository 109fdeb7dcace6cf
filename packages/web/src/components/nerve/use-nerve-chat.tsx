import { useCallback, useEffect, useState } from 'react';
import type { DurableItem, StopAnswer } from '@collie/protocol';
import { nerveApi } from '../../lib/nerve/api';
import { moveInQueue, openTab, subscribedTabs } from '../../lib/nerve/roster';
import { useNerveRoster } from '../../lib/nerve/use-roster';
import { AgentDock } from './agent-dock';
import { AgentLine } from './agent-line';
import { AgentTab } from './agent-tab';
import { AgentsPanel } from './agents-panel';
import { QueueChips } from './queue-chips';
import { SplitStop } from './split-stop';

export interface NerveChatDeps {
  readonly sessionId: string;
  readonly enabled: boolean;
  readonly now: number;
  readonly text: string;
  readonly setText: (t: string) => void;
  /** Sends the composer's text as a message (through the durable agent, like any line). */
  readonly sendText: () => void;
  readonly focusInput: () => void;
  /** Drops your own line of a message cancelled or taken back to edit from the queue: no ghost line. */
  readonly forget: (text: string) => void;
}

/** What a stop answered, in words for the page. */
export function stopWords(a: StopAnswer): string {
  const n = a.live_agents.length;
  const agents = `${n} background agent${n === 1 ? '' : 's'}`;
  switch (a.outcome) {
    case 'stopped':
      return 'Stopped.';
    case 'nothing_running':
      return 'No turn is running; nothing was stopped.';
    case 'not_stopped':
      return `The turn did not stop within 5 s while ${agents} run; stopping it would end them. Force stop ends everything.`;
    case 'needs_confirmation':
      return `Stopping the turn here would end ${agents}; nothing was sent. Stop all agents… or Force stop.`;
  }
}

/**
 * The roster views of a Nerve conversation: agent lines at their spawn points, the agent dock,
 * the Agents panel, agent tabs, the split Stop, the queue chips and the desktop keys.
 */
export function useNerveChat(d: NerveChatDeps) {
  const roster = useNerveRoster(d.sessionId, d.enabled);
  const [panel, setPanel] = useState(false);
  const [tabs, setTabs] = useState<string[]>([]);
  const [active, setActive] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [force, setForce] = useState(false);
  const ready = roster.phase === 'ready' ? roster : null;
  const quiet = ready?.info.quiet_after_minutes ?? 10;
  const agents = ready?.agents ?? [];

  const togglePanel = useCallback(() => setPanel((p) => !p), []);
  useEffect(() => {
    if (!d.enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if ((e.metaKey || e.ctrlKey) && e.shiftKey && e.key.toLowerCase() === 'e') {
        e.preventDefault();
        togglePanel();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [d.enabled, togglePanel]);

  if (!d.enabled) return null;

  const open = (id: string) => {
    setTabs((t) => openTab(t, id));
    setActive(id);
    if (!window.matchMedia('(min-width: 900px)').matches) setPanel(false);
  };
  const stopAgent = (id: string) => void nerveApi.stopAgent(d.sessionId, id).then((r) => setSaid(r.ok ? `Stopping ${r.value.stopping.length} agent${r.value.stopping.length === 1 ? '' : 's'}.` : r.message));
  const stop = async (scope: 'turn' | 'all' | 'force') => {
    const r = await nerveApi.stop(d.sessionId, scope);
    if (!r.ok) return setSaid(r.message), false;
    setSaid(stopWords(r.value));
    setForce(r.value.outcome === 'not_stopped' || r.value.outcome === 'needs_confirmation');
    return r.value.outcome === 'stopped' || r.value.outcome === 'nothing_running';
  };
  const giveBack = (text: string) => d.setText(d.text.trim() ? `${d.text}\n${text}` : text);
  const cancel = (queueId: string) =>
    void nerveApi.cancel(d.sessionId, queueId).then((r) => {
      if (!r.ok) return setSaid(r.message);
      d.forget(r.value.text);
      giveBack(r.value.text);
    });
  const move = (queueId: string, by: -1 | 1) => {
    const order = moveInQueue(
      (ready?.queue ?? []).map((q) => q.queue_id),
      queueId,
      by,
    );
    if (order) void nerveApi.reorder(d.sessionId, order).then((r) => r.ok || setSaid(r.message));
  };
  const subscribed = subscribedTabs(tabs, active);
  const activeRecord = active ? agents.find((r) => r.agent_id === active) : undefined;

  return {
    /** The previews of your messages waiting in the queue: they show as chips only, not as lines. */
    queued: (ready?.queue ?? []).filter((q) => q.sender === 'phone').map((q) => q.preview),
    roster,
    /** The tab bar under the header: Chat, then one tab per opened agent. */
    tabs:
      tabs.length > 0 ? (
        <nav className="agent-tabs" aria-label="Tabs">
          <button type="button" className={`agent-tab-btn${active === null ? ' agent-tab-on' : ''}`} aria-pressed={active === null} onClick={() => setActive(null)}>
            Chat
          </button>
          {tabs.map((id) => {
            const r = agents.find((x) => x.agent_id === id);
            return (
              <span key={id} className={`agent-tab-btn-wrap${active === id ? ' agent-tab-on' : ''}`}>
                <button type="button" className="agent-tab-btn" aria-pressed={active === id} onClick={() => setActive(id)}>
                  {r?.name ?? id}
                </button>
                <button
                  type="button"
                  className="agent-tab-close"
                  aria-label={`Close the tab of ${r?.name ?? id}`}
                  onClick={() => {
                    setTabs((t) => t.filter((x) => x !== id));
                    if (active === id) setActive(null);
                  }}
                >
                  ✕
                </button>
              </span>
            );
          })}
        </nav>
      ) : null,
    /** The active agent tab in place of the thread, or null for Chat. */
    body: activeRecord ? <AgentTab sessionId={d.sessionId} r={activeRecord} tick={ready?.ticks.get(activeRecord.agent_id) ?? 0} subscribed={subscribed.has(activeRecord.agent_id)} now={d.now} quietAfterMinutes={quiet} stop={stopAgent} /> : null,
    /** An Agent call in the thread as its agent's line, at its spawn point. */
    line: (item: DurableItem) => {
      if (item.kind !== 'tool') return null;
      const r = agents.find((x) => x.agent_id === item.callId);
      return r ? <AgentLine key={`a:${r.agent_id}`} r={r} now={d.now} quietAfterMinutes={quiet} open={open} stop={stopAgent} /> : null;
    },
    said: said ? (
      <p className="durable-note nerve-said" role="status">
        {said}
      </p>
    ) : roster.phase === 'unavailable' ? (
      <p className="durable-note" role="status">
        The roster cannot be read: {roster.message}
      </p>
    ) : null,
    dock: (
      <>
        <QueueChips queue={ready?.queue ?? []} move={move} cancel={cancel} edit={cancel} />
        <AgentDock agents={agents} now={d.now} quietAfterMinutes={quiet} open={togglePanel} />
      </>
    ),
    stop: (
      <SplitStop
        running={ready?.isRunning ?? false}
        hasText={d.text.trim() !== ''}
        stopTurn={() => void stop('turn')}
        stopAndSend={() => void stop('turn').then(() => d.sendText())}
        stopAll={() => void stop('all')}
        force={force ? () => void stop('force') : null}
      />
    ),
    panel: panel ? (
      <AgentsPanel
        agents={agents}
        now={d.now}
        quietAfterMinutes={quiet}
        open={open}
        stop={stopAgent}
        stopAll={() => void stop('all')}
        close={() => setPanel(false)}
        back={() => {
          if (!window.matchMedia('(min-width: 900px)').matches) setPanel(false);
          d.focusInput();
        }}
      />
    ) : null,
    /** ↓ in an empty message box opens the Agents panel. */
    onInputKey: (e: React.KeyboardEvent<HTMLTextAreaElement>) => {
      if (e.key === 'ArrowDown' && e.currentTarget.value === '' && agents.length > 0) {
        e.preventDefault();
        setPanel(true);
      }
    },
    panelOpen: panel,
  };
}
