/**
 * Nerve as a durable agent (docs/wire-v1.md), so the phone shows it: each session is a
 * conversation; each spawning call is a tool item carrying its agent_id; Stop and Steer on the
 * belt; "Stop all agents…" a belt button. Only the SDK's public API is used.
 */
import { DurableAgent, serve, type Conversation, type Listening, type ToolHandle } from '@collie/durable-sdk';
import { LIVE_STATUSES, type AgentRecord, type NerveEvent } from '@collie/protocol';
import type { Gateway } from '../gateway/gateway';
import type { Session } from '../session/session';
import type { SessionLine } from '../store/store';

/** The tool name a record's item shows, by kind. */
const TOOL_NAME: Record<AgentRecord['kind'], string> = {
  agent: 'Agent',
  workflow: 'Workflow',
  shell: 'Bash',
  monitor: 'Monitor',
  teammate: 'Teammate',
  remote_agent: 'RemoteAgent',
  mcp_task: 'McpTask',
  other: 'Task',
};

export interface Attached {
  agent: DurableAgent;
  listening: Listening;
  close(): Promise<void>;
}

/** The tool item's input line: what the agent is, and its agent_id for the phone's roster. */
export const toolInput = (r: AgentRecord): string => `${r.name} · agent_id=${r.agent_id}`;

/**
 * The header's second line: the roster counted as the phone's agent dock counts it (needing
 * attention, else running while live, done when completed, else ended), so the two agree.
 */
export function rosterWords(records: readonly AgentRecord[]): string {
  if (records.length === 0) return 'no background agents';
  let attention = 0, running = 0, done = 0, ended = 0;
  for (const r of records) {
    if (r.attention.length > 0) attention++;
    else if (LIVE_STATUSES.includes(r.status)) running++;
    else if (r.status === 'completed') done++;
    else ended++;
  }
  const parts = [`${running} running`];
  if (attention > 0) parts.push(`${attention} need${attention === 1 ? 's' : ''} attention`);
  parts.push(`${done} done`);
  if (ended > 0) parts.push(`${ended} ended`);
  return `Background agents: ${parts.join(' · ')}`;
}

/** Whether a stop event ended the turn: a turn stop that stopped, or Stop all / Force stop while a turn ran. */
export function endedTurn(e: Extract<NerveEvent, { type: 'session.stop_event' }>, working: boolean): boolean {
  if (e.name === 'stop_requested') return e.details['outcome'] === 'stopped';
  return (e.name === 'agents_stop_all_requested' || e.name === 'force_stop_requested') && working;
}

export async function attachDurable(gateway: Gateway, socket: string): Promise<Attached> {
  const convs = new Map<string, Conversation>();
  const tools = new Map<string, ToolHandle>();
  const runs = new Map<string, () => void>();
  const viaWire = new Set<string>();
  // "stopped" already written for this stop: at the turn's end (late) or at the stop event (early).
  const late = new Set<string>();
  const early = new Set<string>();
  const sessionOf = (c: Conversation): Session | undefined => gateway.sessions.get(c.id);

  const agent = new DurableAgent({
    runtime: 'nerve',
    controls: { steer: true },
    starters: [{ id: 'new', label: 'New Claude session', onStart: () => open(gateway.create('New session')) }],
    // A queued message is not in the thread until its turn starts: the phone shows it as a chip.
    echo: false,
    onMessage: (c, text, { requestId }) => {
      const s = sessionOf(c);
      if (s) s.send({ text, origin: 'web', sender: 'phone', clientMsgId: requestId });
    },
    onStop: async (c) => {
      const s = sessionOf(c);
      if (!s) return;
      // The SDK notes "stopped" itself after a stop through the wire: the stop event leaves no second one.
      viaWire.add(c.id);
      const a = await s.stop('turn', 'phone').finally(() => viaWire.delete(c.id));
      if (a.outcome === 'needs_confirmation') c.notice(`Stop would end ${a.live_agents.length} background agent(s); use "Stop all agents…" to end them.`);
      if (a.outcome === 'not_stopped') c.notice(`The turn did not stop within 5 s while ${a.live_agents.length} agent(s) run; it is left running.`);
    },
  });

  function open(s: Session): Conversation {
    const info = s.info();
    const c = agent.open({ id: s.id, title: info.title, subtitle: subtitle(s) });
    convs.set(s.id, c);
    // Each message as its turn starts, once, in run order (the phone's own line by its request id).
    runs.get(s.id)?.();
    runs.set(
      s.id,
      s.onRun((m) => {
        const requestId = m.origin === 'web' && m.sender === 'phone' ? m.clientMsgId : null;
        write(c, gateway.store.line({ session_id: s.id, kind: 'user', text: m.text, request_id: requestId, at: Date.now() }));
      }),
    );
    c.buttons([{ id: 'stop-all', label: 'Stop all agents…', icon: 'x', onTap: () => void s.stop('all', 'phone') }]);
    // The whole conversation as before a restart: its lines and its agents' items in time order.
    const lines = gateway.store.lines(s.id);
    const records = [...s.roster.list()].sort((a, b) => a.created_at - b.created_at);
    let r = 0;
    for (const l of lines) {
      while (r < records.length && records[r]!.created_at < l.at) item(c, records[r++]!);
      write(c, l);
    }
    while (r < records.length) item(c, records[r++]!);
    if (info.is_running) c.startTurn();
    return c;
  }

  /** A stored line into the thread, under the same id and time every time it is written (a restart writes it again). */
  function write(c: Conversation, l: SessionLine): void {
    const o = { id: `line-${l.id}`, at: l.at };
    if (l.kind === 'user') c.user(l.text, l.request_id, o);
    else c.reply(l.text, o);
  }

  function subtitle(s: Session): string {
    return rosterWords(s.roster.list());
  }

  function item(c: Conversation, r: AgentRecord): void {
    let t = tools.get(r.agent_id);
    if (!t) {
      t = c.tool(TOOL_NAME[r.kind], toolInput(r), r.agent_id, { id: `agent-${r.agent_id}`, at: r.created_at });
      tools.set(r.agent_id, t);
    }
    // Stopped is never shown as done.
    if (r.status === 'completed') t.done(r.summary ?? 'completed');
    else if (r.status === 'failed' || r.status === 'lost' || r.status === 'interrupted' || r.status === 'stopped') {
      t.fail(`${r.status}${r.reason ? ` (${r.reason})` : ''}`);
    }
  }

  const on = (e: NerveEvent) => {
    const c = convs.get(e.session_id);
    const s = gateway.sessions.get(e.session_id);
    if (!c || !s) {
      if (s && e.type !== 'session.text' && e.type !== 'agent.transcript') open(s);
      return;
    }
    switch (e.type) {
      case 'session.running':
        if (e.is_running) {
          early.delete(c.id);
          c.startTurn();
          return;
        }
        // The turn a stop interrupted ends: "stopped" goes here, before the next queued message's line.
        if (!early.delete(c.id) && s.stopping && !viaWire.has(c.id)) {
          c.notice('stopped');
          late.add(c.id);
        }
        c.endTurn();
        return;
      case 'session.text':
        write(c, gateway.store.line({ session_id: s.id, kind: 'reply', text: e.text, request_id: null, at: Date.now() }));
        return;
      case 'agent.updated':
      case 'session.background': {
        if (e.type === 'agent.updated') item(c, e.agent);
        // Only a changed count is sent: activity updates come many a second.
        const words = subtitle(s);
        if (c.meta.subtitle !== words) c.set({ subtitle: words });
        return;
      }
      case 'session.stop_event':
        // A stop from anywhere (the phone's red Stop goes to Nerve's API) that ended the turn leaves "stopped" in the thread, once.
        if (late.delete(c.id) || viaWire.has(c.id) || !endedTurn(e, c.meta.working)) return;
        c.notice('stopped');
        // Stop all and Force stop tell before the turn ends: its end writes no second note.
        if (e.name !== 'stop_requested') early.add(c.id);
        return;
      case 'queue.update':
      case 'agent.transcript': // the durable item carries the record, not its transcript
        return;
    }
  };
  for (const s of gateway.sessions.values()) if (!s.info().archived) open(s);
  const off = gateway.subscribe((f) => on(f.event));
  const listening = await serve(agent, { socket });
  return {
    agent,
    listening,
    close: async () => {
      off();
      await listening.close();
    },
  };
}
