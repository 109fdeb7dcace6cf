import { CREW_OUTCOME_KEEP_MS, type CrewWalkyOutcome } from '@collie/protocol';

/** Receipt changes waiting for one machine's ack; sent again with back-off, dropped after 10 minutes. */
export class Outbox {
  private readonly pending = new Map<string, { o: CrewWalkyOutcome; first: number }>();
  private timer: NodeJS.Timeout | null = null;
  private delay = 250;
  private busy = false;

  constructor(
    private readonly post: (outs: CrewWalkyOutcome[]) => Promise<string[]>,
    private readonly now: () => number,
  ) {}

  add(o: CrewWalkyOutcome): void {
    const had = this.pending.get(o.id);
    this.pending.set(o.id, { o, first: had?.first ?? this.now() });
    this.delay = 250;
    this.schedule(20);
  }

  size(): number {
    return this.pending.size;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(ms: number): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, ms);
  }

  private async flush(): Promise<void> {
    if (this.busy) return this.schedule(100);
    const t = this.now();
    for (const [id, p] of this.pending) if (t - p.first > CREW_OUTCOME_KEEP_MS) this.pending.delete(id);
    if (this.pending.size === 0) return;
    this.busy = true;
    const sent = [...this.pending.values()].slice(0, 500).map((p) => p.o);
    try {
      const acked = new Set(await this.post(sent));
      // Only what was acked as sent: a newer change of the same id goes again.
      for (const o of sent) if (acked.has(o.id) && this.pending.get(o.id)?.o === o) this.pending.delete(o.id);
      this.delay = 250;
    } catch {
      this.delay = Math.min(this.delay * 2, 10_000);
    } finally {
      this.busy = false;
    }
    if (this.pending.size > 0) this.schedule(this.delay);
  }
}
