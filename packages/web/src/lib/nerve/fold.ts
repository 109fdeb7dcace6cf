import type { AgentRecord, NerveEvent, QueuedMessage } from '@collie/protocol';

/** What the bridge's `nerve.*` events said since the snapshot, per Nerve session. */
export interface NerveSessionFold {
  readonly agents: ReadonlyMap<string, AgentRecord>;
  readonly queue: readonly QueuedMessage[] | null;
  readonly isRunning: boolean | null;
  /** Per agent, how many `agent.updated` events came: a tab reads the transcript again when it moves. */
  readonly ticks: ReadonlyMap<string, number>;
}

export interface NerveFold {
  readonly link: 'ready' | 'down' | null;
  /** Bumped each time the link comes back: the page reads the roster again. */
  readonly epoch: number;
  readonly sessions: ReadonlyMap<string, NerveSessionFold>;
}

export const emptyNerve = (): NerveFold => ({ link: null, epoch: 0, sessions: new Map() });
const emptySession = (): NerveSessionFold => ({ agents: new Map(), queue: null, isRunning: null, ticks: new Map() });

/** Folds one Nerve event in. Pure. */
export function foldNerveEvent(f: NerveFold, e: NerveEvent): NerveFold {
  const s = f.sessions.get(e.session_id) ?? emptySession();
  let next: NerveSessionFold = s;
  switch (e.type) {
    case 'agent.updated': {
      const agents = new Map(s.agents);
      agents.set(e.agent.agent_id, e.agent);
      const ticks = new Map(s.ticks);
      ticks.set(e.agent.agent_id, (ticks.get(e.agent.agent_id) ?? 0) + 1);
      next = { ...s, agents, ticks };
      break;
    }
    case 'queue.update':
      next = { ...s, queue: e.queue };
      break;
    case 'session.running':
      next = { ...s, isRunning: e.is_running };
      break;
    default:
      return f;
  }
  const sessions = new Map(f.sessions);
  sessions.set(e.session_id, next);
  return { ...f, sessions };
}

export function foldNerveLink(f: NerveFold, state: 'ready' | 'down'): NerveFold {
  return { ...f, link: state, epoch: state === 'ready' ? f.epoch + 1 : f.epoch };
}
