/**
 * Nerve as a durable agent (docs/wire-v1.md), so the phone shows it: each session is a
 * conversation; each spawning call is a tool item carrying its agent_id; Stop and Steer on the
 * belt; "Stop all agents…" a belt button. Only the SDK's public API is used.
 */
import { DurableAgent, serve, type Conversation, type Listening, type ToolHandle } from '@collie/durable-sdk';
import type { AgentRecord, NerveEvent } from '@collie/protocol';
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

export async function attachDurable(gateway: Gateway, socket: string): Promise<Attached> {
  const convs = new Map<string, Conversation>();
  const tools = new Map<string, ToolHandle>();
  const runs = new Map<string, () => void>();
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
      const a = await s.stop('turn', 'phone');
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
    const n = s.liveCount;
    return n === 0 ? 'no background agents' : `${n} background agent${n === 1 ? '' : 's'} live`;
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
        if (e.is_running) c.startTurn();
        else c.endTurn();
        return;
      case 'session.text':
        write(c, gateway.store.line({ session_id: s.id, kind: 'reply', text: e.text, request_id: null, at: Date.now() }));
        return;
      case 'agent.updated':
        item(c, e.agent);
        return;
      case 'session.background':
        c.set({ subtitle: subtitle(s) });
        return;
      case 'queue.update':
      case 'session.stop_event':
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
