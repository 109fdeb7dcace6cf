/**
 * One session's roster: a pure state machine from {@link RosterInput}s to {@link AgentRecord}s.
 * The clock and the id maker are passed in; nothing here does I/O. Timed rules (the 10-second
 * claim, lost, stop_unconfirmed) advance on {@link Roster.tick}.
 */
import type { AgentRecord, AgentStatus, EndReason, StopReason } from '@collie/protocol';
import type { RosterInput, TaskStartedIn } from './input';
import { AMBIENT_TASK_TYPES, callName, spawnKind, taskKind } from './kinds';
import { Meters } from './meters';
import { isLive, RosterBook } from './roster-book';

export { isLive, type RosterHooks, type RosterLimits } from './roster-book';

/** A task no call claims within this long gets a record of its own (spec: 10 s). */
export const CLAIM_MS = 10_000;
/** A record still `starting` after this long is lost (spec: never started within 5 minutes). */
export const NEVER_STARTED_MS = 5 * 60_000;

interface Pending {
  input: TaskStartedIn;
  at: number;
  frames: RosterInput[];
}


export class Roster extends RosterBook {
  private readonly byTask = new Map<string, string>();
  private readonly pending = new Map<string, Pending>();
  private readonly ignored = new Set<string>();
  /** Foreground tasks (a foreground Bash): no record unless moved to the background. */
  private readonly foreground = new Map<string, TaskStartedIn>();
  private readonly stopReasons = new Map<string, StopReason>();
  private readonly meters = new Meters();
  /** Live background set members, and when each left it without a final status. */
  private liveSet = new Set<string>();
  private readonly vanishedAt = new Map<string, number>();
  /** Task ids the orchestrator's own TaskStop named. */
  private readonly orchestratorStops = new Set<string>();
  /** Records already announced as stop_unconfirmed (said once, at the tick it applies). */
  private readonly unconfirmed = new Set<string>();

  /** Loads stored records (at start or after a reload). */
  load(records: readonly AgentRecord[], nextSeq: (agentId: string) => number = () => 0): void {
    for (const r of records) {
      this.seqs.set(r.agent_id, nextSeq(r.agent_id));
      this.records.set(r.agent_id, { ...r });
      if (r.tool_use_id) this.byCall.set(r.tool_use_id, r.agent_id);
      if (r.task_id) this.byTask.set(r.task_id, r.agent_id);
    }
  }

  ingest(input: RosterInput): void {
    switch (input.type) {
      case 'tool_call':
        return this.onCall(input.toolUseId, input.name, input.input, input.parentToolUseId);
      case 'tool_result':
        return this.onResult(input.toolUseId, input.isError, input.text, input.namedTaskId);
      case 'task_started':
        return this.onStarted(input);
      case 'background_set':
        return this.onSet(input.tasks.filter((t) => !t.ambient && !this.ignored.has(t.taskId)).map((t) => t.taskId));
      case 'agent_frame':
        return this.onFrame(input);
      case 'task_updated':
      case 'task_progress':
      case 'task_notification':
        return this.onTaskFrame(input);
    }
  }

  /** Marks agents as asked to stop, remembering why for when the runtime confirms. */
  requestStop(agentIds: readonly string[], reason: StopReason): void {
    for (const id of agentIds) {
      const r = this.records.get(id);
      if (!r || !isLive(r.status)) continue;
      this.stopReasons.set(id, reason);
      // A record the runtime never reported has nothing to stop: it ends here.
      if (r.status === 'starting' && !r.task_id) this.finish(r, 'stopped', reason);
      else {
        this.unconfirmed.delete(id);
        this.update(r, { status: 'stopping', stop_requested_at: this.now() }, true);
      }
    }
  }

  /** The runtime went away: every live agent ends as interrupted with the reason. */
  interruptAll(reason: EndReason): AgentRecord[] {
    const ended = this.live();
    for (const r of ended) this.finish(this.records.get(r.agent_id)!, 'interrupted', reason);
    this.liveSet = new Set();
    this.pending.clear();
    return ended;
  }

  /** Advances the timed rules: the claim window, lost, never started. */
  tick(): void {
    const now = this.now();
    for (const [taskId, p] of this.pending) {
      if (now - p.at < CLAIM_MS) continue;
      this.pending.delete(taskId);
      const r = this.create(taskKind(p.input.taskType), p.input.description || p.input.taskType, null, null, p.input.background);
      if (p.input.prompt) r.prompt = p.input.prompt;
      this.bind(r, p.input, p.frames);
    }
    for (const r of this.records.values()) {
      if (r.status === 'starting' && now - r.created_at > NEVER_STARTED_MS) this.finish(r, 'lost', 'never_started');
      const gone = r.task_id ? this.vanishedAt.get(r.task_id) : undefined;
      if (gone !== undefined && isLive(r.status) && now - gone >= this.limits.lostGraceSeconds * 1000) this.finish(r, 'lost', 'vanished');
      // The flag is computed on read; clients following events hear of it once, when it applies.
      if (r.status === 'stopping' && !this.unconfirmed.has(r.agent_id)) {
        const attention = this.attention(r);
        if (attention.includes('stop_unconfirmed')) {
          this.unconfirmed.add(r.agent_id);
          this.hooks.changed({ ...r, attention }, false);
        }
      }
    }
  }

  private onCall(toolUseId: string, name: string, input: Record<string, unknown>, parent: string | null): void {
    const parentAgent = parent ? this.byCall.get(parent) : undefined;
    if (parentAgent) {
      const rec = this.records.get(parentAgent)!;
      this.line(parentAgent, 'tool_call', { id: toolUseId, name, input });
      // Flagged before the record goes out, so the update that says it asks carries needs_input.
      if (name === 'AskUserQuestion' && !rec.background) this.asking.set(toolUseId, parentAgent);
      this.update(rec, { activity: `${name} ${callName(name, input)}`.slice(0, 200) }, false);
    }
    if (name === 'TaskStop' && typeof input.task_id === 'string') this.orchestratorStops.add(input.task_id);
    if (this.byCall.has(toolUseId)) return;
    const kind = spawnKind(name, input);
    if (!kind) return;
    const r = this.create(kind, callName(name, input), toolUseId, parentAgent ?? null, input.run_in_background === true);
    r.prompt = typeof input.prompt === 'string' ? input.prompt : typeof input.command === 'string' ? input.command : '';
    this.hooks.changed({ ...r, attention: [] }, true);
  }

  private onResult(toolUseId: string, isError: boolean, text: string, named: string | null): void {
    // An answered question (the agent's frame for this result sends the record out again).
    this.asking.delete(toolUseId);
    const id = this.byCall.get(toolUseId);
    const r = id ? this.records.get(id) : undefined;
    if (!r) return;
    if (named && !r.task_id) {
      const p = this.pending.get(named);
      if (p) {
        this.pending.delete(named);
        this.bind(r, p.input, p.frames);
      } else {
        this.byTask.set(named, r.agent_id);
        this.update(r, { task_id: named }, false);
      }
    }
    // A spawn that failed, or a foreground agent whose result is its report.
    if (isError && r.status === 'starting') this.finish(r, 'failed', null, text.slice(0, 2000));
    else if (!r.background && isLive(r.status)) this.finish(r, isError ? 'failed' : 'completed', null, text.slice(0, 2000));
  }

  private onStarted(input: TaskStartedIn): void {
    if (input.ambient || AMBIENT_TASK_TYPES.has(input.taskType)) {
      this.ignored.add(input.taskId);
      return;
    }
    const known = this.byTask.get(input.taskId);
    if (known) {
      const r = this.records.get(known)!;
      // A SendMessage resume of the same task: the one way a finished agent runs again.
      if (!isLive(r.status) && r.status !== 'stopped') {
        this.update(r, { status: 'running', runs: r.runs + 1, reason: null, ended_at: null, stop_requested_at: null }, true);
      } else if (r.status === 'starting') this.update(r, { status: 'running', started_at: this.now() }, true);
      return;
    }
    const byCall = input.toolUseId ? this.byCall.get(input.toolUseId) : undefined;
    if (byCall) return this.bind(this.records.get(byCall)!, input, []);
    if (input.toolUseId && !input.background && input.taskType === 'local_bash') {
      this.foreground.set(input.taskId, input);
      return;
    }
    this.pending.set(input.taskId, { input, at: this.now(), frames: [] });
  }

  private bind(r: AgentRecord, input: TaskStartedIn, frames: RosterInput[]): void {
    this.byTask.set(input.taskId, r.agent_id);
    const parent = input.parentTaskId ? this.byTask.get(input.parentTaskId) : undefined;
    const patch: Partial<AgentRecord> = { task_id: input.taskId, background: r.background || input.background };
    if (parent && !r.parent_agent_id) patch.parent_agent_id = parent;
    if (r.status === 'starting') Object.assign(patch, { status: 'running', started_at: this.now() });
    this.update(r, patch, true);
    for (const f of frames) this.ingest(f);
  }

  private onTaskFrame(input: Extract<RosterInput, { type: 'task_updated' | 'task_progress' | 'task_notification' }>): void {
    if (this.ignored.has(input.taskId)) return;
    const p = this.pending.get(input.taskId);
    if (p) {
      p.frames.push(input);
      return;
    }
    if (input.type === 'task_updated' && input.backgrounded) {
      const fg = this.foreground.get(input.taskId);
      if (fg) {
        // A foreground Bash past its timeout, moved to the background: now work of its own.
        this.foreground.delete(input.taskId);
        const r = this.create('shell', fg.description || 'Bash', null, null, true);
        this.bind(r, { ...fg, background: true }, []);
        return;
      }
    }
    const id = this.byTask.get(input.taskId);
    const r = id ? this.records.get(id) : undefined;
    if (!r) return;
    if (input.type === 'task_progress') {
      this.meters.reported(r.agent_id, input.totalTokens);
      const activity = input.summary ?? (input.lastTool ? `${input.lastTool}` : r.activity);
      this.line(r.agent_id, 'progress', { summary: input.summary, last_tool: input.lastTool, tokens: input.totalTokens });
      this.update(r, { activity, ...this.meters.tokens(r.agent_id) }, false);
      return;
    }
    if (input.type === 'task_updated') {
      if (input.backgrounded) this.update(r, { background: true }, false);
      const s = input.status;
      if (s === 'running' && r.status === 'starting') this.update(r, { status: 'running', started_at: this.now() }, true);
      else if (s === 'completed') this.finish(r, 'completed', null);
      else if (s === 'failed') this.finish(r, 'failed', null, input.error ?? undefined);
      else if (s === 'killed') this.finish(r, 'stopped', this.whyStopped(r));
      return;
    }
    this.meters.reported(r.agent_id, input.totalTokens);
    Object.assign(r, this.meters.tokens(r.agent_id));
    if (input.status === 'stopped') this.finish(r, 'stopped', this.whyStopped(r), input.summary);
    else this.finish(r, input.status, null, input.summary);
  }

  private whyStopped(r: AgentRecord): StopReason {
    return this.stopReasons.get(r.agent_id) ?? (r.task_id && this.orchestratorStops.has(r.task_id) ? 'orchestrator' : 'unknown_stop');
  }

  private onSet(ids: string[]): void {
    const now = this.now();
    const next = new Set(ids);
    for (const id of this.liveSet) if (!next.has(id)) this.vanishedAt.set(id, now);
    for (const id of next) this.vanishedAt.delete(id);
    this.liveSet = next;
  }

  private onFrame(f: Extract<RosterInput, { type: 'agent_frame' }>): void {
    const id = this.byCall.get(f.parentToolUseId);
    const r = id ? this.records.get(id) : undefined;
    if (!r) return;
    if (f.call) this.meters.call(r.agent_id, f.call);
    if (f.kind !== 'tool_call') this.line(r.agent_id, f.kind, f.payload);
    const text = typeof f.payload.text === 'string' ? f.payload.text.trim().split('\n')[0] : undefined;
    this.update(r, { ...(f.kind === 'text' && text ? { activity: text.slice(0, 200) } : {}), ...this.meters.tokens(r.agent_id) }, false);
  }

  /** The first final status wins: a record already final keeps it. */
  private finish(r: AgentRecord, status: AgentStatus, reason: EndReason | null, summary?: string): void {
    if (!isLive(r.status)) return;
    this.stopReasons.delete(r.agent_id);
    this.unconfirmed.delete(r.agent_id);
    for (const [call, agent] of this.asking) if (agent === r.agent_id) this.asking.delete(call);
    this.update(r, { status, reason, ended_at: this.now(), ...(summary ? { summary } : {}) }, true);
    this.line(r.agent_id, 'status', { status, reason });
  }
}
