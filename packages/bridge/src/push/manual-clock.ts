/** A clock and timers moved by hand, for the pure tests of the push planner. */
export class ManualClock {
  now = 0;
  private timers: { at: number; run: () => void; id: number }[] = [];
  private ids = 0;

  timer = (ms: number, run: () => void): (() => void) => {
    const id = ++this.ids;
    this.timers.push({ at: this.now + ms, run, id });
    return () => void (this.timers = this.timers.filter((t) => t.id !== id));
  };

  /** Move time forward, running each timer due on the way, in order. */
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.now = due.at;
      due.run();
    }
    this.now = end;
  }
}
