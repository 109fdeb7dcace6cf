/**
 * One Nerve session: its runtime, its roster, its turn queue. Keeps the two facts apart: the
 * turn is running (`isRunning`), and agents are live (`liveCount`); neither is derived from the
 * other (spec "Sub-agents and background tasks"). The runtime and its turn are session-runtime.ts;
 * here, what callers ask of a session: send, the four ways to stop, model, title, archive.
 */
import type { AgentRecord, EndReason, StopAnswer, StopScope } from '@collie/protocol';
import type { Incoming, TurnQueue } from '../queue/turn-queue';
import { isLive } from '../roster/roster';
import { SessionRuntime } from './session-runtime';

export { TASK_STOP_WAIT_MS, type SessionDeps } from './session-runtime';

/** A stopped turn that has not ended after this long, while agents run, is left running (spec: 5 s). */
export const TURN_STOP_WAIT_MS = 5_000;

export type SendResult = { outcome: 'started' | 'queued' | 'duplicate'; queue_id: string };

export class Session extends SessionRuntime {
  /** A stop is interrupting the turn: the turn that ends now was stopped. */
  get stopping(): boolean {
    return this.interrupting > 0;
  }

  /**
   * A message: it runs now if no turn runs and none waits, else it waits in the queue (the end).
   * With no turn running, the first waiting message runs (one left by runtimes that kept failing).
   */
  send(m: Incoming): SendResult {
    const a = this.queue.admit(m);
    if (a.outcome === 'duplicate') return a;
    if (this.running || this.queue.size > 0) {
      this.queue.push(a.item);
      this.emitQueue();
      this.runNext();
      return { outcome: this.queue.list().some((q) => q.queue_id === a.item.queue_id) ? 'queued' : 'started', queue_id: a.item.queue_id };
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
      // What waited runs on, on a runtime of the new model.
      this.runNext();
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
   * when it has closed (after its shells' stop_task answers, or {@link TASK_STOP_WAIT_MS}) and its
   * process has ended, and so has every runtime a stop, a model switch or a reap let go before.
   */
  shutdown(reason: EndReason): Promise<void> {
    void this.endRuntime(reason);
    this.deps.store.flush();
    return this.closed();
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
    void this.retire(rt, []);
    this.deps.log(`nerve: runtime of ${this.id} reaped after ${Math.round(idle / 1000)} s idle`);
  }

  private event(name: 'stop_requested' | 'agent_stop_requested' | 'agents_stop_all_requested' | 'force_stop_requested', by: string, details: Record<string, unknown>): void {
    this.deps.store.sessionEvent(this.id, name, by, details, this.deps.now());
    this.deps.emit({ type: 'session.stop_event', session_id: this.id, name, requested_by: by, details });
  }
}
