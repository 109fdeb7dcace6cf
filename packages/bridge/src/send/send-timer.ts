/** The longest wait Node's setTimeout takes; a later time is reached by arming again. */
const MAX_WAIT_MS = 2 ** 31 - 1;

/**
 * One timer for the next due scheduled send, never polling: `arm` looks up the earliest
 * time (`next`) and sets the timer for it; when it rings, `fire` gets the clock and the timer
 * is armed again for whatever is next. Arm again whenever the set of waiting sends changes.
 */
export class SendTimer {
  private timer: NodeJS.Timeout | null = null;
  private due = Number.POSITIVE_INFINITY;

  constructor(
    private readonly o: {
      /** Epoch ms of the earliest send still to fire, or null when none waits. */
      next(): number | null;
      fire(now: number): void;
      now: () => number;
    },
  ) {}

  arm(): void {
    const next = this.o.next();
    if (next === null) return this.stop();
    if (this.timer && next === this.due) return;
    this.stop();
    this.due = next;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.due = Number.POSITIVE_INFINITY;
      this.o.fire(this.o.now());
      this.arm();
    }, Math.min(MAX_WAIT_MS, Math.max(0, next - this.o.now())));
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.due = Number.POSITIVE_INFINITY;
  }
}
