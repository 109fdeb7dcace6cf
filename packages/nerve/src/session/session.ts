/**
 * One Nerve session: its runtime, its roster, its turn queue. Keeps the two facts apart: the
 * turn is running (`isRunning`), and agents are live (`liveCount`); neither is derived from the
 * other (spec "Sub-agents and background tasks").
 */
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import type { AgentRecord, EndReason, NerveEvent, SessionInfo, StopAnswer, StopScope } from '@collie/protocol';
import type { Incoming, Queued } from '../queue/turn-queue';
import { TurnQueue } from '../queue/turn-queue';
import { isLive, Roster } from '../roster/roster';
import { capTranscriptItem } from '../roster/transcript-cap';
import { readFrame } from '../runtime/frames';
import type { Runtime, RuntimeOptions } from '../runtime/runtime';
import type { Store, StoredSession } from '../store/store';
import type { SubagentSettings } from '../config/config';
import { reminderFor } from './reminder';

/** A stopped turn that has not ended after this long, while agents run, is left running (spec: 5 s). */
export const TURN_STOP_WAIT_MS = 5_000;
/**
 * How long a runtime that goes away waits for its shells' stop_task answers before it closes
 * (also the bound of a clean gateway shutdown: every runtime waits at once).
 */
export const TASK_STOP_WAIT_MS = 5_000;

export interface SessionDeps {
  store: Store;
  now(): number;
  newAgentId(): string;
  newQueueId(): string;
  settings(): SubagentSettings;
  startRuntime(opts: Pick<RuntimeOptions, 'onMessage' | 'onEnd' | 'model' | 'resume' | 'perTaskStopAffordance' | 'agentProgressSummaries' | 'forwardSubagentText'>): Runtime;
  emit(e: NerveEvent): void;
  log(line: string): void;
}

export type SendResult = { outcome: 'started' | 'queued' | 'duplicate'; queue_id: string };

export class Session {
  readonly roster: Roster;
  readonly queue: TurnQueue;
  private runtime: Runtime | null = null;
  private spared = true;
  private running = false;
  private lastLive = 0;
  private dropNotifications = false;
  /** The last time the runtime was handed a message or said anything (idle reaping). */
  private lastActive: number;
  private readonly turnWaiters = new Set<() => void>();

  constructor(
    private meta: StoredSession,
    private readonly deps: SessionDeps,
  ) {
    const s = deps.settings();
    this.roster = new Roster(meta.session_id, deps.now, deps.newAgentId, {
      changed: (r, status) => this.onRecord(r, status),
      event: (e) => {
        // Stored behind and streamed at once, the same capped line.
        const line = capTranscriptItem(e, deps.settings().transcript_item_max_bytes);
        deps.store.event(line);
        deps.emit({ type: 'agent.transcript', session_id: meta.session_id, line });
      },
    }, { lostGraceSeconds: s.lost_grace_seconds, stopConfirmSeconds: s.stop_confirm_seconds });
    this.roster.load(deps.store.agents(meta.session_id), (id) => deps.store.nextSeq(id));
    this.queue = new TurnQueue(deps.now, deps.newQueueId);
    this.lastActive = deps.now();
  }

  /** Whether a runtime (a `claude` process) is up for this session. */
  get hasRuntime(): boolean {
    return this.runtime !== null;
  }

  get id(): string {
    return this.meta.session_id;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** A stop is interrupting the turn: the turn that ends now was stopped. */
  get stopping(): boolean {
    return this.interrupting > 0;
  }

  get liveCount(): number {
    return this.roster.live().length;
  }

  info(): SessionInfo {
    const n = this.liveCount;
    return {
      session_id: this.id,
      title: this.meta.title,
      model: this.meta.model,
      is_running: this.running,
      has_background_tasks: n > 0,
      background_count: n,
      archived: this.meta.archived,
      created_at: this.meta.created_at,
      quiet_after_minutes: this.deps.settings().quiet_after_minutes,
    };
  }

  /** A message: it runs now if no turn runs and none waits, else it waits in the queue. */
  send(m: Incoming): SendResult {
    const a = this.queue.admit(m);
    if (a.outcome === 'duplicate') return a;
    if (this.running || this.queue.size > 0) {
      this.queue.push(a.item);
      this.emitQueue();
      return { outcome: 'queued', queue_id: a.item.queue_id };
    }
    this.run(a.item);
    return { outcome: 'started', queue_id: a.item.queue_id };
  }

  cancelQueued(queueId: string, sender: string | null): ReturnType<TurnQueue['cancel']> {
    const r = this.queue.cancel(queueId, sender);
    if (r.ok) this.emitQueue();
    return r;
  }

  reorderQueue(order: readonly string[]): ReturnType<TurnQueue['reorder']> {
    const r = this.queue.reorder(order);
    if (r.ok) this.emitQueue();
    return r;
  }

  /** The four ways to stop (spec "Stopping"). */
  async stop(scope: StopScope, by: string, includeShells = true): Promise<StopAnswer> {
    const live = this.roster.live().map((r) => r.agent_id);
    if (scope === 'force') {
      this.event('force_stop_requested', by, { live_agents: live });
      void this.endRuntime('force_stop');
      // A stop never touches the queue: a queued message runs after the stopped turn (on a new runtime).
      this.runNext();
      return { outcome: 'stopped', live_agents: live };
    }
    if (scope === 'all') {
      const targets = this.roster.live().filter((r) => includeShells || (r.kind !== 'shell' && r.kind !== 'monitor'));
      this.event('agents_stop_all_requested', by, { live_agents: targets.map((r) => r.agent_id), include_shells: includeShells });
      await this.stopAgents(targets, 'stop_all');
      // Notifications already queued in the runtime would wake the orchestrator into relaunching.
      this.dropNotifications = true;
      if (this.running) await this.interruptTurn();
      return { outcome: 'stopped', live_agents: targets.map((r) => r.agent_id) };
    }
    const answer = await this.stopTurn();
    this.event('stop_requested', by, { scope, outcome: answer.outcome, live_agents: answer.live_agents });
    return answer;
  }

  private async stopTurn(): Promise<StopAnswer> {
    const live = this.roster.live().map((r) => r.agent_id);
    if (!this.running || !this.runtime) return { outcome: 'nothing_running', live_agents: live };
    // Without the flag an interrupt ends every background agent: ask first, send nothing.
    if (!this.spared && live.length > 0) return { outcome: 'needs_confirmation', live_agents: live };
    const ended = await this.interruptTurn();
    if (ended) return { outcome: 'stopped', live_agents: [] };
    const stillLive = this.roster.live().map((r) => r.agent_id);
    if (stillLive.length > 0) return { outcome: 'not_stopped', live_agents: stillLive };
    // No live agents: cancelling (shutting the runtime down) ends nothing else.
    void this.endRuntime('process_ended');
    this.runNext();
    return { outcome: 'stopped', live_agents: [] };
  }

  /** Interrupts the turn and waits for it to end, up to 5 s. True when it ended. */
  private async interruptTurn(): Promise<boolean> {
    this.interrupting++;
    try {
      return await this.interruptAndWait();
    } finally {
      this.interrupting--;
    }
  }

  private interrupting = 0;

  private async interruptAndWait(): Promise<boolean> {
    const ended = new Promise<boolean>((resolve) => {
      const t = setTimeout(() => {
        this.turnWaiters.delete(done);
        resolve(false);
      }, TURN_STOP_WAIT_MS);
      const done = () => {
        clearTimeout(t);
        resolve(true);
      };
      this.turnWaiters.add(done);
    });
    await this.runtime?.interrupt().catch((err: unknown) => this.deps.log(`nerve: interrupt failed: ${String(err)}`));
    return this.running ? ended : true;
  }

  /** Stops one agent and the agents it started, deepest first. */
  async stopAgent(agentId: string, by: string): Promise<string[] | null> {
    if (!this.roster.get(agentId)) return null;
    const targets = this.roster.subtree(agentId).filter((r) => isLive(r.status));
    this.event('agent_stop_requested', by, { agent_id: agentId, stopping: targets.map((r) => r.agent_id) });
    await this.stopAgents(targets, 'user');
    return targets.map((r) => r.agent_id);
  }

  private async stopAgents(targets: AgentRecord[], reason: 'user' | 'stop_all'): Promise<void> {
    this.roster.requestStop(
      targets.map((r) => r.agent_id),
      reason,
    );
    for (const r of targets) {
      if (r.task_id && this.runtime) await this.runtime.stopTask(r.task_id).catch((err: unknown) => this.deps.log(`nerve: stop_task ${r.task_id}: ${String(err)}`));
    }
  }

  /** Model switch: refused while agents are live (they would end with the runtime). */
  setModel(model: string): { ok: true } | { ok: false; live: string[] } {
    const live = this.roster.live().map((r) => r.agent_id);
    if (live.length > 0) return { ok: false, live };
    if (model !== this.meta.model) {
      void this.endRuntime('model_switch');
      this.save({ model });
    }
    return { ok: true };
  }

  setTitle(title: string): void {
    this.save({ title });
  }

  /** Archive: refused with live agents unless forced; then they end as interrupted (archived). */
  archive(force: boolean): { ok: true } | { ok: false; live: string[] } {
    const live = this.roster.live().map((r) => r.agent_id);
    if (live.length > 0 && !force) return { ok: false, live };
    void this.endRuntime('archived');
    this.save({ archived: true });
    return { ok: true };
  }

  /**
   * The gateway shuts down or the session is deleted: the runtime goes, live agents end. Resolves
   * when the runtime has closed: after its shells' stop_task answers, or {@link TASK_STOP_WAIT_MS}.
   */
  shutdown(reason: EndReason): Promise<void> {
    const closed = this.endRuntime(reason);
    this.deps.store.flush();
    return closed;
  }

  /** Settles what leftover records the store found at start, for the next turn's reminder. */
  remind(ended: readonly AgentRecord[]): void {
    if (ended.length > 0) this.save({ reminder: reminderFor(ended, this.meta.reminder) });
  }

  tick(idleReapMinutes: number | null = null): void {
    this.roster.tick();
    this.noteLive();
    this.reapIfIdle(idleReapMinutes);
  }

  /**
   * Idle reaping: a runtime with no turn, nothing queued and no live agent for the configured
   * time is shut down. Never with live agents (they would end with it). The next message
   * starts a new runtime on the same runtime session.
   */
  private reapIfIdle(minutes: number | null): void {
    if (minutes === null || !this.runtime || this.running || this.queue.size > 0 || this.liveCount > 0) return;
    const idle = this.deps.now() - this.lastActive;
    if (idle < minutes * 60_000) return;
    const rt = this.runtime;
    this.runtime = null;
    rt.close();
    this.deps.log(`nerve: runtime of ${this.id} reaped after ${Math.round(idle / 1000)} s idle`);
  }

  private readonly runListeners = new Set<(item: Queued) => void>();

  /** Called as each message's turn starts (at once, or when it leaves the queue); returns the unsubscribe. */
  onRun(listener: (item: Queued) => void): () => void {
    this.runListeners.add(listener);
    return () => this.runListeners.delete(listener);
  }

  private run(item: Queued): void {
    for (const l of this.runListeners) l(item);
    this.dropNotifications = false;
    this.lastActive = this.deps.now();
    if (!this.runtime) this.startRuntime();
    const reminder = this.meta.reminder;
    // The reminder rides this one turn and is not kept in the history.
    if (reminder) this.save({ reminder: null });
    this.setRunning(true);
    this.runtime!.send(reminder ? `${reminder}\n\n${item.text}` : item.text);
  }

  private startRuntime(): void {
    const s = this.deps.settings();
    this.spared = s.per_task_stop_affordance;
    let rt: Runtime | null = null;
    rt = this.deps.startRuntime({
      model: this.meta.model,
      ...(this.meta.runtime_session_id ? { resume: this.meta.runtime_session_id } : {}),
      perTaskStopAffordance: s.per_task_stop_affordance,
      agentProgressSummaries: s.progress_summaries,
      forwardSubagentText: s.forward_subagent_text,
      onMessage: (msg) => {
        if (this.runtime === rt) this.onMessage(msg);
      },
      onEnd: (how, err) => {
        if (this.runtime !== rt) return;
        this.deps.log(`nerve: runtime of ${this.id} ended (${how})${err ? `: ${String(err)}` : ''}`);
        void this.endRuntime('process_ended');
      },
    });
    this.runtime = rt;
  }

  /** Resolves when the runtime has closed (at once when there was none). */
  private endRuntime(reason: EndReason): Promise<void> {
    const rt = this.runtime;
    this.runtime = null;
    // A background shell or monitor is a process of its own the CLI started; closing the CLI
    // would leave it running. Its task is stopped on the way out, then the runtime closes.
    const processes = this.roster
      .live()
      .filter((r) => r.task_id !== null && (r.kind === 'shell' || r.kind === 'monitor'))
      .map((r) => r.task_id!);
    const closed = rt ? this.closeRuntime(rt, processes) : Promise.resolve();
    const ended = this.roster.interruptAll(reason);
    this.remind(ended);
    this.setRunning(false);
    this.deps.store.flush();
    return closed;
  }

  /** Stops the given tasks (up to {@link TASK_STOP_WAIT_MS}), then closes the runtime. */
  private async closeRuntime(rt: Runtime, tasks: readonly string[]): Promise<void> {
    if (tasks.length > 0) {
      const stops = Promise.all(tasks.map((t) => rt.stopTask(t).catch((err: unknown) => this.deps.log(`nerve: stop_task ${t} on the way out: ${String(err)}`))));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((r) => (timer = setTimeout(r, TASK_STOP_WAIT_MS)));
      await Promise.race([stops, late]);
      clearTimeout(timer);
    }
    rt.close();
  }

  private onMessage(msg: SDKMessage): void {
    this.lastActive = this.deps.now();
    const f = readFrame(msg);
    if (f.runtimeSessionId && f.runtimeSessionId !== this.meta.runtime_session_id) this.save({ runtime_session_id: f.runtimeSessionId });
    for (const input of f.roster) this.roster.ingest(input);
    if (f.turnActive && !this.running) {
      // An autonomous turn: the runtime woke up after background work settled.
      this.setRunning(true);
      if (this.dropNotifications) void this.runtime?.interrupt().catch(() => undefined);
    }
    if (f.text) this.deps.emit({ type: 'session.text', session_id: this.id, text: f.text });
    if (f.turnEnded) this.turnEnded();
    this.noteLive();
  }

  private turnEnded(): void {
    this.setRunning(false);
    for (const w of this.turnWaiters) w();
    this.turnWaiters.clear();
    this.runNext();
  }

  /** The run lock goes straight to the first queued message. */
  private runNext(): void {
    if (this.running) return;
    const next = this.queue.take();
    if (next) {
      this.emitQueue();
      this.run(next);
    }
  }

  private setRunning(on: boolean): void {
    if (this.running === on) return;
    this.running = on;
    this.deps.emit({ type: 'session.running', session_id: this.id, is_running: on });
  }

  private onRecord(r: AgentRecord, status: boolean): void {
    this.deps.store.record(r, status);
    this.deps.emit({ type: 'agent.updated', session_id: this.id, agent: r });
    if (status) this.deps.log(`agents[${this.id}] ${r.status} agent=${r.agent_id} task=${r.task_id ?? '-'} tool_use=${r.tool_use_id ?? '-'} kind=${r.kind} bg=${r.background}`);
    if (status) this.noteLive();
  }

  private noteLive(): void {
    const n = this.liveCount;
    if (n === this.lastLive) return;
    this.lastLive = n;
    this.deps.emit({ type: 'session.background', session_id: this.id, has_background_tasks: n > 0, background_count: n });
  }

  private emitQueue(): void {
    this.deps.emit({ type: 'queue.update', session_id: this.id, queue: this.queue.list() });
  }

  private event(name: 'stop_requested' | 'agent_stop_requested' | 'agents_stop_all_requested' | 'force_stop_requested', by: string, details: Record<string, unknown>): void {
    this.deps.store.sessionEvent(this.id, name, by, details, this.deps.now());
    this.deps.emit({ type: 'session.stop_event', session_id: this.id, name, requested_by: by, details });
  }

  private save(patch: Partial<StoredSession>): void {
    this.meta = { ...this.meta, ...patch };
    this.deps.store.putSession(this.meta);
  }
}
