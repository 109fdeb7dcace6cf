/**
 * A Nerve session's runtime and its turn: the `claude` process started for a message and ended
 * for a stop, a model switch or an archive (its shells stopped on the way out), what it says read
 * into the roster, and the turn queue run one message at a time. session.ts adds what callers ask
 * of a session (send, stop, archive) on top.
 */
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import type { AgentRecord, EndReason, NerveEvent, SessionInfo } from '@collie/protocol';
import type { Queued } from '../queue/turn-queue';
import { TurnQueue } from '../queue/turn-queue';
import { Roster } from '../roster/roster';
import { capTranscriptItem } from '../roster/transcript-cap';
import { readFrame } from '../runtime/frames';
import type { Runtime, RuntimeOptions } from '../runtime/runtime';
import type { Store, StoredSession } from '../store/store';
import type { SubagentSettings } from '../config/config';
import { reminderFor } from './reminder';

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

export class SessionRuntime {
  readonly roster: Roster;
  readonly queue: TurnQueue;
  protected runtime: Runtime | null = null;
  protected spared = true;
  protected running = false;
  private lastLive = 0;
  protected dropNotifications = false;
  /** The last time the runtime was handed a message or said anything (idle reaping). */
  protected lastActive: number;
  protected readonly turnWaiters = new Set<() => void>();
  /**
   * The message handed to the runtime whose turn has not ended (the queue hands one at a time).
   * While there is one, a turn the runtime ran on its own ends without freeing the run lock: the
   * message waits in the runtime for that turn, then runs as its own. `started` once the runtime
   * started its turn; a runtime that ends before that never took it, and it is queued first again.
   */
  private handed: { item: Queued; uuid: string; reminder: string | null; started: boolean } | null = null;
  /** The runtime tells its queue's steps (`command_lifecycle`). */
  private saysLifecycle = false;
  /** Runtimes in a row that ended before taking their message: past two, the queue waits for the next send. */
  private failedStarts = 0;

  constructor(
    protected meta: StoredSession,
    protected readonly deps: SessionDeps,
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

  /** Settles what leftover records the store found at start, for the next turn's reminder. */
  remind(ended: readonly AgentRecord[]): void {
    if (ended.length > 0) this.save({ reminder: reminderFor(ended, this.meta.reminder) });
  }

  private readonly runListeners = new Set<(item: Queued) => void>();

  /** Called as each message's turn starts (at once, or when it leaves the queue); returns the unsubscribe. */
  onRun(listener: (item: Queued) => void): () => void {
    this.runListeners.add(listener);
    return () => this.runListeners.delete(listener);
  }

  protected run(item: Queued): void {
    for (const l of this.runListeners) l(item);
    this.dropNotifications = false;
    this.lastActive = this.deps.now();
    if (!this.runtime) this.startRuntime();
    const reminder = this.meta.reminder;
    // The reminder rides this one turn and is not kept in the history.
    if (reminder) this.save({ reminder: null });
    this.setRunning(true);
    const uuid = this.runtime!.send(reminder ? `${reminder}\n\n${item.text}` : item.text);
    this.handed = { item, uuid, reminder, started: false };
  }

  private startRuntime(): void {
    const s = this.deps.settings();
    this.spared = s.per_task_stop_affordance;
    this.saysLifecycle = false;
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
        if (/No conversation found/.test(String(err)) && this.meta.runtime_session_id) {
          // The runtime died before it wrote its conversation: the next one starts a new one.
          this.deps.log(`nerve: ${this.id}: runtime session ${this.meta.runtime_session_id} was never written; the next runtime starts a new one`);
          this.save({ runtime_session_id: null });
        }
        const tookNothing = this.handed !== null && !this.handed.started;
        void this.endRuntime('process_ended');
        this.failedStarts = tookNothing ? this.failedStarts + 1 : 0;
        // The queue goes on, on a new runtime, as after a force stop; not into a runtime that keeps failing.
        if (this.failedStarts <= 2) this.runNext();
        else this.deps.log(`nerve: ${this.id}: ${this.failedStarts} runtimes in a row ended before taking a message; the queue waits for the next message`);
      },
    });
    this.runtime = rt;
  }

  /** Resolves when the runtime has closed (at once when there was none). */
  protected endRuntime(reason: EndReason): Promise<void> {
    const rt = this.runtime;
    this.runtime = null;
    // A background shell or monitor is a process of its own the CLI started; closing the CLI
    // would leave it running. Its task is stopped on the way out, then the runtime closes.
    const processes = this.roster
      .live()
      .filter((r) => r.task_id !== null && (r.kind === 'shell' || r.kind === 'monitor'))
      .map((r) => r.task_id!);
    const closed = rt ? this.retire(rt, processes) : Promise.resolve();
    const ended = this.roster.interruptAll(reason);
    this.remind(ended);
    this.putBackUntaken();
    this.setRunning(false);
    this.deps.store.flush();
    return closed;
  }

  /** A message the ending runtime never started goes first in the queue again (with its reminder). */
  private putBackUntaken(): void {
    const h = this.handed;
    this.handed = null;
    if (!h || h.started) return;
    if (h.reminder && !this.meta.reminder) this.save({ reminder: h.reminder });
    this.queue.putBack(h.item);
    this.emitQueue();
  }

  /** Runtimes on their way out (a force stop, a model switch, a reap): a shutdown waits for every one. */
  private readonly closing = new Set<Promise<void>>();

  /** Resolves when every runtime on its way out has closed. */
  protected async closed(): Promise<void> {
    await Promise.all([...this.closing]);
  }

  /** Closes a runtime that has left the session, and keeps it among those a shutdown waits for. */
  protected retire(rt: Runtime, tasks: readonly string[]): Promise<void> {
    const closed = this.closeRuntime(rt, tasks);
    this.closing.add(closed);
    void closed.finally(() => this.closing.delete(closed));
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
    await rt.close();
  }

  private onMessage(msg: SDKMessage): void {
    this.lastActive = this.deps.now();
    const f = readFrame(msg);
    if (f.runtimeSessionId && f.runtimeSessionId !== this.meta.runtime_session_id) this.save({ runtime_session_id: f.runtimeSessionId });
    if (f.command) this.saysLifecycle = true;
    // Started: the runtime says so; one that says nothing of its queue (an older CLI) by its turn's first output.
    if (this.handed && ((f.command?.state === 'started' && f.command.uuid === this.handed.uuid) || (f.turnActive && !this.saysLifecycle))) this.handed.started = true;
    for (const input of f.roster) this.roster.ingest(input);
    if (f.turnActive && !this.running) {
      // An autonomous turn: the runtime woke up after background work settled.
      this.setRunning(true);
      if (this.dropNotifications) void this.runtime?.interrupt().catch(() => undefined);
    }
    if (f.text) this.deps.emit({ type: 'session.text', session_id: this.id, text: f.text });
    if (f.turnEnded && f.failedStart && this.handed && !this.handed.started) {
      // The runtime failed before it took the message; it ends next, and the queue goes on then.
      this.putBackUntaken();
      this.setRunning(false);
    } else if (f.turnEnded) this.turnEnded(f.origin === 'task-notification');
    this.noteLive();
  }

  /** A turn ended; `ownTurn` when the runtime ran it on its own (a background task's notification). */
  private turnEnded(ownTurn: boolean): void {
    if (ownTurn && this.handed) return;
    this.handed = null;
    this.setRunning(false);
    for (const w of this.turnWaiters) w();
    this.turnWaiters.clear();
    this.runNext();
  }

  /** The run lock goes straight to the first queued message. */
  protected runNext(): void {
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

  protected noteLive(): void {
    const n = this.liveCount;
    if (n === this.lastLive) return;
    this.lastLive = n;
    this.deps.emit({ type: 'session.background', session_id: this.id, has_background_tasks: n > 0, background_count: n });
  }

  protected emitQueue(): void {
    this.deps.emit({ type: 'queue.update', session_id: this.id, queue: this.queue.list() });
  }

  protected save(patch: Partial<StoredSession>): void {
    this.meta = { ...this.meta, ...patch };
    this.deps.store.putSession(this.meta);
  }
}
