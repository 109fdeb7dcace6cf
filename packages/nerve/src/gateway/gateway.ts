/**
 * The gateway: every session, the store, the event stream and the once-a-second tick that
 * writes transcripts behind and advances the timed rules.
 */
import type { NerveEvent, NerveEventFrame } from '@collie/protocol';
import type { SubagentSettings } from '../config/config';
import { Runtime, type RuntimeOptions } from '../runtime/runtime';
import { Session } from '../session/session';
import type { Store } from '../store/store';
import { newAgentId, newQueueId, newSessionId } from './ids';

/** Write-behind period (spec: batches about once a second per session). */
export const FLUSH_MS = 1_000;

export interface GatewayOptions {
  store: Store;
  cwd: string;
  model: string;
  env: Record<string, string | undefined>;
  claudePath?: string;
  settings(): SubagentSettings;
  /** `idle_reap_minutes`, read at each tick; absent or null: runtimes are never reaped. */
  idleReapMinutes?(): number | null;
  log?(line: string): void;
  now?(): number;
}

export class Gateway {
  readonly sessions = new Map<string, Session>();
  private seq = 0;
  private readonly listeners = new Set<(f: NerveEventFrame) => void>();
  private readonly timer: NodeJS.Timeout;
  private readonly now: () => number;

  constructor(private readonly opts: GatewayOptions) {
    this.now = opts.now ?? Date.now;
    // Leftovers of a gateway that went away without settling them (a crash, a kill -9).
    const leftovers = opts.store.settleLeftovers(this.now());
    for (const meta of opts.store.sessions()) {
      const s = this.make(meta);
      s.remind(leftovers.get(meta.session_id) ?? []);
    }
    this.timer = setInterval(() => this.tick(), FLUSH_MS);
    this.timer.unref();
  }

  private make(meta: Parameters<Store['putSession']>[0]): Session {
    const s = new Session(meta, {
      store: this.opts.store,
      now: this.now,
      newAgentId,
      newQueueId,
      settings: this.opts.settings,
      emit: (e) => this.emit(e),
      log: (l) => this.opts.log?.(l),
      startRuntime: (o) => this.startRuntime(o),
    });
    this.sessions.set(meta.session_id, s);
    return s;
  }

  private startRuntime(o: Pick<RuntimeOptions, 'onMessage' | 'onEnd' | 'model' | 'resume' | 'perTaskStopAffordance' | 'agentProgressSummaries' | 'forwardSubagentText'>): Runtime {
    return new Runtime({ ...o, cwd: this.opts.cwd, env: this.opts.env, ...(this.opts.claudePath ? { executable: this.opts.claudePath } : {}) });
  }

  create(title?: string, model?: string): Session {
    const meta = { session_id: newSessionId(), title: title ?? 'New session', model: model ?? this.opts.model, runtime_session_id: null, archived: false, reminder: null, created_at: this.now() };
    this.opts.store.putSession(meta);
    return this.make(meta);
  }

  /** Deletes a session and (cascading) its records and transcripts. */
  delete(id: string): boolean {
    const s = this.sessions.get(id);
    if (!s) return false;
    void s.shutdown('archived');
    this.sessions.delete(id);
    this.opts.store.deleteSession(id);
    return true;
  }

  get store(): Store {
    return this.opts.store;
  }

  /** Writes what is held behind now (a transcript read sees every line). */
  flush(): void {
    this.opts.store.flush();
  }

  emit(event: NerveEvent): void {
    const frame = { seq: ++this.seq, event };
    for (const l of this.listeners) l(frame);
  }

  /** Subscribes to every event; returns the unsubscribe. */
  subscribe(fn: (f: NerveEventFrame) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  tick(): void {
    const s = this.opts.settings();
    for (const session of this.sessions.values()) {
      session.roster.setLimits({ lostGraceSeconds: s.lost_grace_seconds, stopConfirmSeconds: s.stop_confirm_seconds });
      session.tick(this.opts.idleReapMinutes?.() ?? null);
    }
    this.opts.store.flush();
  }

  /**
   * A clean shutdown: every runtime goes, its live agents end as interrupted (gateway_restart).
   * Their statuses are written at once; it resolves when every runtime has closed, after its
   * shells' stop_task answers (each runtime waits at most TASK_STOP_WAIT_MS, all at once).
   */
  async close(): Promise<void> {
    clearInterval(this.timer);
    const closing = [...this.sessions.values()].map((s) => s.shutdown('gateway_restart'));
    this.opts.store.flush();
    await Promise.all(closing);
  }
}
