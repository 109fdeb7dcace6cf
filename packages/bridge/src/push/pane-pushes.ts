import type { Pane } from '@collie/protocol';
import type { CapDecision } from '../durable/push-caps';
import { paneAsk, paneFinished, turnFinished, waitsOnUser, type PaneAsk } from './ask-text';

/** What the planner asks the sender to do. */
export type PaneShow = PaneAsk & { kind: 'blocked' | 'finished' | 'reminder' };

export interface PanePushDeps {
  /** The debounce: a dialog answered at the desk within it pushes nothing (`COLLIE_PUSH_DELAY`). */
  delayMs: number;
  /** A question still open this long after its push gets one reminder. */
  reminderMs: number;
  now: () => number;
  /** A timer; returns its cancel. Tests pass a manual clock. */
  timer: (ms: number, run: () => void) => () => void;
  /** The once-only rule and the caps (`PushDecider.once`): null when this question pushed before. */
  gate: (agent: string, question: string, pane: string, now: number) => CapDecision | null;
  looking: (now: number) => boolean;
  /**
   * Whether this kind may push now (turned on in Settings, outside the quiet hours). One that may
   * not shows nothing, so it takes nothing: no caps, no once-only key, nothing to withdraw.
   * Absent: every kind may.
   */
  allowed?: (kind: 'blocked' | 'finished') => boolean;
  mask: (s: string) => string;
  show: (push: PaneShow) => void;
  flood: () => void;
  withdraw: (tag: string) => void;
  /**
   * True while another machine pushes this pane's questions (docs/push.md, "In a crew"): a
   * member whose stream to its lead is up leaves its panes to the lead; a lead leaves a member's
   * panes to that member while it cannot reach it. Absent: this machine pushes every pane.
   */
  leave?: (paneId: string) => boolean;
}

interface Open {
  ask: PaneAsk;
  agent: string;
  paneId: string;
  /** A push for it went out (this run or, per the once-only file, an earlier one). */
  pushed: boolean;
  reminded: boolean;
  /** Left to the other machine when it came due (or handed over since): nothing sent from here. */
  left: boolean;
  /** Pushed from here, then withdrawn at a hand-over: taken back, it shows again despite the once-only rule. */
  handedOver: boolean;
  cancel: () => void;
}

/**
 * Pane pushes, from the panes the hub publishes: a pane that waits on the user for `delayMs`
 * pushes its question once (within the caps); when it stops waiting (answered anywhere) or
 * asks something else, a pushed question is withdrawn. A finished turn (`done`) pushes the same
 * way, once per turn, withdrawn when the pane is opened or works again. Pure apart from the deps.
 */
export class PanePushes {
  private readonly open = new Map<string, Open>();

  constructor(private readonly d: PanePushDeps) {}

  update(p: Pane): void {
    const ask = waitsOnUser(p) ? paneAsk(p, this.d.mask) : turnFinished(p) ? paneFinished(p, this.d.mask) : null;
    const was = this.open.get(p.id);
    if (was && was.ask.question === ask?.question) {
      was.ask = ask;
      this.recheck(was);
      return;
    }
    if (was) this.close(was);
    if (!ask) return;
    const entry: Open = { ask, agent: p.harness, paneId: p.id, pushed: false, reminded: false, left: false, handedOver: false, cancel: () => undefined };
    entry.cancel = this.d.timer(this.d.delayMs, () => this.fire(entry));
    this.open.set(p.id, entry);
  }

  removed(id: string): void {
    const was = this.open.get(id);
    if (was) this.close(was);
  }

  /**
   * Who pushes may have changed (the member's stream to its lead came up or went down): a
   * question this machine pushed and now leaves is withdrawn here (the other machine pushes it
   * after its own delay), and one it left and now takes back waits the delay again and pushes.
   */
  recheckAll(): void {
    for (const e of [...this.open.values()]) this.recheck(e);
  }

  private recheck(e: Open): void {
    const leave = this.d.leave?.(e.paneId) === true;
    if (leave && !e.left) {
      e.cancel();
      e.left = true;
      if (e.pushed) {
        this.d.withdraw(e.ask.tag);
        e.handedOver = true;
      }
      e.pushed = false;
      e.reminded = false;
    } else if (!leave && e.left) {
      e.left = false;
      e.cancel = this.d.timer(this.d.delayMs, () => this.fire(e));
    }
  }

  /** Questions waiting or pushed now (for tests and the bench). */
  get waiting(): number {
    return this.open.size;
  }

  stop(): void {
    for (const e of this.open.values()) e.cancel();
    this.open.clear();
  }

  private fire(e: Open): void {
    if (this.open.get(e.paneId) !== e) return;
    if (this.d.leave?.(e.paneId) === true) {
      e.left = true;
      return;
    }
    const now = this.d.now();
    // Nobody is pushed while the app is open somewhere; the reminder tries again.
    if (!this.d.looking(now)) this.first(e, now);
    // A finished turn is news, not a question: no reminder.
    if (!e.ask.finished) e.cancel = this.d.timer(this.d.reminderMs, () => this.remind(e));
  }

  private first(e: Open, now: number): void {
    if (this.d.allowed?.(e.ask.finished ? 'finished' : 'blocked') === false) return;
    const cap = this.d.gate(e.agent, e.ask.question, e.paneId, now);
    // Pushed in an earlier run: it may still be on the lock screen, so withdraw it when answered.
    // Pushed here and withdrawn at a hand-over: nothing shows it now, so it shows again.
    if (cap === null) {
      e.pushed = true;
      if (e.handedOver) this.d.show({ ...e.ask, kind: e.ask.finished ? 'finished' : 'blocked' });
    }
    else if (cap.push === 'question') {
      e.pushed = true;
      this.d.show({ ...e.ask, kind: e.ask.finished ? 'finished' : 'blocked' });
    } else if (cap.push === 'flood') this.d.flood();
  }

  private remind(e: Open): void {
    if (this.open.get(e.paneId) !== e || e.reminded || e.left) return;
    e.reminded = true;
    const now = this.d.now();
    if (this.d.looking(now)) return;
    if (e.pushed) this.d.show({ ...e.ask, kind: 'reminder' });
    else this.first(e, now);
  }

  private close(e: Open): void {
    e.cancel();
    this.open.delete(e.paneId);
    if (e.pushed) this.d.withdraw(e.ask.tag);
  }
}
