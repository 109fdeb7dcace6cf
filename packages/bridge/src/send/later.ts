import { OUTCOME, parseSendAt, scheduledOutcome, sendAtProblem, type Pane, type SendReceipt, type SendWhen } from '@collie/protocol';
import type { EventHub } from '../events/hub';
import { NotSaved, type ReceiptStore, type StoredSend } from './receipt-store';
import { SendRefusal } from './refusal';
import { SendTimer } from './send-timer';

/** When a send is to wait: an ISO time with its zone, or the pane's own usage-limit reset. */
export interface SendLater {
  readonly at?: string;
  readonly when?: SendWhen;
}

interface LaterDeps {
  store: ReceiptStore;
  hub: EventHub;
  now: () => number;
  /** The send service's lane of the pane (every decision about a send of it is made there). */
  inLane<T>(paneId: string, fn: () => Promise<T>): Promise<T>;
  record(send: StoredSend): Promise<SendReceipt>;
  /** Hand a send whose time came to the pane's queue, as any send. */
  run(requestId: string, paneId: string): void;
}

/**
 * Sends that wait (issue 29): stored in the send journal at `scheduled` with their text, so
 * they survive restarts and `kill -9`; one timer for the next due one (`send-timer.ts`). At its
 * time a send joins its pane's queue (`queued`, `firedAt` written first) and is typed by the
 * send protocol, held like any send while the pane is busy; a time already past at start fires
 * at once. A `limit-reset` send follows the pane's `usage.limit.resetsAt` while it waits.
 */
export class LaterSends {
  private readonly timer: SendTimer;
  private readonly firing = new Set<string>();
  private readonly off: () => void;

  constructor(private readonly d: LaterDeps) {
    this.timer = new SendTimer({ next: () => this.next(), fire: (now) => this.fire(now), now: d.now });
    this.off = d.hub.subscribe((e) => {
      if (e.type === 'pane.updated') this.follow(e.pane);
    });
  }

  /** The instant of an `at`; throws `bad_time` for one that is not an ISO 8601 time with its zone. */
  atOf(at: string): number {
    const ms = parseSendAt(at);
    if (ms === null) throw new SendRefusal('bad_time', 'bridge: at: an ISO 8601 time with its zone, like 2026-12-05T02:00:00Z');
    return ms;
  }

  /** The pane's usage-limit reset; throws `no_reset_time` when the bridge does not know one. */
  resetFor(paneId: string): number {
    const reset = this.resetOf(this.d.hub.panes.get(paneId));
    if (reset === null) throw new SendRefusal('no_reset_time', 'bridge: this pane has no known usage-limit reset time; pick a time instead');
    return reset;
  }

  /** Refuse a new request's time when it is past or too far ahead. */
  check(ms: number, later: SendLater): void {
    const problem = later.when === undefined ? sendAtProblem(ms, this.d.now()) : null;
    if (problem) throw new SendRefusal('bad_time', `bridge: at: ${problem}`);
  }

  /** The receipt a scheduled send starts with. */
  receipt(base: SendReceipt, ms: number, when: SendWhen | undefined): SendReceipt {
    return { ...base, state: 'scheduled', outcome: scheduledOutcome(ms, when), scheduledFor: new Date(ms).toISOString(), ...(when ? { waitsFor: when } : {}) };
  }

  /**
   * Whether a send to this pane waits for its usage-limit reset (for the "Ready again" push):
   * one still scheduled, or, given the reset (ISO), one this reset fired (its own timer rings at
   * the same instant as the push's, in either order).
   */
  waitsForReset(paneId: string, resetsAt?: string): boolean {
    const at = resetsAt === undefined ? NaN : Date.parse(resetsAt);
    return this.d.store.waiting().some((s) => {
      const r = s.receipt;
      if (r.paneId !== paneId || r.waitsFor !== 'limit-reset') return false;
      return r.state === 'scheduled' || (s.firedAt !== undefined && r.scheduledFor !== undefined && Date.parse(r.scheduledFor) === at);
    });
  }

  /** Set the timer for the next due send; call after a send is scheduled, moved or at start. */
  arm(): void {
    this.timer.arm();
  }

  stop(): void {
    this.timer.stop();
    this.off();
  }

  private resetOf(pane: Pane | undefined): number | null {
    const at = pane?.usage?.limit?.resetsAt;
    return at === undefined ? null : (parseSendAt(at) ?? (Number.isNaN(Date.parse(at)) ? null : Date.parse(at)));
  }

  private scheduled(): StoredSend[] {
    return this.d.store.waiting().filter((s) => s.receipt.state === 'scheduled' && s.receipt.scheduledFor !== undefined && !this.firing.has(s.receipt.requestId));
  }

  private next(): number | null {
    let min: number | null = null;
    for (const s of this.scheduled()) {
      const t = Date.parse(s.receipt.scheduledFor!);
      if (min === null || t < min) min = t;
    }
    return min;
  }

  /** Every send due by `now` joins its pane's queue, once: decided in the pane's lane, so a cancel cannot cross it. */
  private fire(now: number): void {
    for (const s of this.scheduled()) {
      if (Date.parse(s.receipt.scheduledFor!) > now) continue;
      const { requestId, paneId } = s.receipt;
      this.firing.add(requestId);
      void this.d
        .inLane(paneId, async () => {
          const cur = this.d.store.get(requestId);
          if (!cur || cur.receipt.state !== 'scheduled') return false; // cancelled meanwhile
          const t = this.d.now();
          // Not written (the state disk full): it joins the queue all the same, and its next write decides whether it is typed.
          await this.d.record({ ...cur, receipt: { ...cur.receipt, state: 'queued', outcome: OUTCOME.queued, updatedAt: t }, firedAt: t }).catch((err: unknown) => {
            if (!(err instanceof NotSaved)) throw err;
          });
          return true;
        })
        .then((go) => go && this.d.run(requestId, paneId))
        .catch(() => undefined) // the journal is closed: the bridge is stopping, and the send fires at the next start
        .finally(() => this.firing.delete(requestId));
    }
  }

  /** A `limit-reset` send follows its pane's reset time when the usage readers see it move. */
  private follow(pane: Pane): void {
    const reset = this.resetOf(pane);
    if (reset === null) return;
    const iso = new Date(reset).toISOString();
    for (const s of this.scheduled()) {
      const r = s.receipt;
      if (r.paneId !== pane.id || r.waitsFor !== 'limit-reset' || r.scheduledFor === iso) continue;
      void this.d
        .inLane(pane.id, async () => {
          const cur = this.d.store.get(r.requestId);
          if (!cur || cur.receipt.state !== 'scheduled') return;
          await this.d.record({ ...cur, receipt: { ...cur.receipt, scheduledFor: iso, outcome: scheduledOutcome(reset, 'limit-reset'), updatedAt: this.d.now() } });
        })
        .then(() => this.arm())
        .catch(() => undefined);
    }
  }
}
