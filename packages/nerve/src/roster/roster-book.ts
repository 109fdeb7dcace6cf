/**
 * The roster's book: its records, their lookups and how a change is told (a record to the hooks,
 * with its attention flags computed on read; a transcript line numbered per agent). The rules
 * that move records live in roster.ts.
 */
import { LIVE_STATUSES, type AgentRecord, type AgentStatus, type AgentTranscriptEvent } from '@collie/protocol';

export interface RosterLimits {
  lostGraceSeconds: number;
  stopConfirmSeconds: number;
}

export interface RosterHooks {
  /** A record changed; `status` is true when its status did (written at once). */
  changed(record: AgentRecord, status: boolean): void;
  /** A transcript line for an agent (written behind). */
  event(event: AgentTranscriptEvent): void;
}

export const isLive = (s: AgentStatus): boolean => LIVE_STATUSES.includes(s);

export class RosterBook {
  protected readonly records = new Map<string, AgentRecord>();
  protected readonly byCall = new Map<string, string>();
  protected readonly seqs = new Map<string, number>();
  /** Open AskUserQuestion calls inside agents: call id → agent id. */
  protected readonly asking = new Map<string, string>();

  constructor(
    readonly sessionId: string,
    protected readonly now: () => number,
    protected readonly newId: () => string,
    protected readonly hooks: RosterHooks,
    protected limits: RosterLimits,
  ) {}

  setLimits(limits: RosterLimits): void {
    this.limits = limits;
  }

  list(): AgentRecord[] {
    return [...this.records.values()].map((r) => ({ ...r, attention: this.attention(r) }));
  }

  get(agentId: string): AgentRecord | undefined {
    const r = this.records.get(agentId);
    return r && { ...r, attention: this.attention(r) };
  }

  live(): AgentRecord[] {
    return this.list().filter((r) => isLive(r.status));
  }

  /** The agent's descendants and itself, deepest first. */
  subtree(agentId: string): AgentRecord[] {
    const out: AgentRecord[] = [];
    const walk = (id: string) => {
      for (const child of this.records.values()) if (child.parent_agent_id === id) walk(child.agent_id);
      const self = this.records.get(id);
      if (self) out.push(self);
    };
    walk(agentId);
    return out;
  }

  protected attention(r: AgentRecord): AgentRecord['attention'] {
    const a: AgentRecord['attention'] = [];
    if ([...this.asking.values()].includes(r.agent_id)) a.push('needs_input');
    if (r.status === 'failed') a.push('failed');
    if (r.status === 'interrupted') a.push('interrupted');
    if (r.status === 'lost') a.push('lost');
    if (r.status === 'stopping' && r.stop_requested_at !== null && this.now() - r.stop_requested_at >= this.limits.stopConfirmSeconds * 1000) {
      a.push('stop_unconfirmed');
    }
    return a;
  }

  protected create(kind: AgentRecord['kind'], name: string, toolUseId: string | null, parent: string | null, background: boolean): AgentRecord {
    const now = this.now();
    const r: AgentRecord = {
      agent_id: this.newId(),
      session_id: this.sessionId,
      kind,
      status: 'starting',
      reason: null,
      tool_use_id: toolUseId,
      task_id: null,
      parent_agent_id: parent,
      name,
      prompt: '',
      background,
      runs: 1,
      activity: null,
      summary: null,
      tokens: 0,
      cost_usd: 0,
      created_at: now,
      started_at: null,
      ended_at: null,
      last_activity_at: now,
      stop_requested_at: null,
      attention: [],
    };
    this.records.set(r.agent_id, r);
    if (toolUseId) this.byCall.set(toolUseId, r.agent_id);
    return r;
  }

  protected update(r: AgentRecord, patch: Partial<AgentRecord>, status: boolean): void {
    Object.assign(r, patch, { last_activity_at: this.now() });
    this.hooks.changed({ ...r, attention: this.attention(r) }, status);
  }

  protected line(agentId: string, kind: AgentTranscriptEvent['kind'], payload: Record<string, unknown>): void {
    const seq = this.seqs.get(agentId) ?? 0;
    this.seqs.set(agentId, seq + 1);
    this.hooks.event({ agent_id: agentId, seq, kind, payload, at: this.now() });
  }
}
