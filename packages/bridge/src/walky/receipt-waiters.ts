import type { WalkyMessage } from '@collie/protocol';

/** Who waits for a message's receipt to turn final: woken on every save of that message. */
export class ReceiptWaiters {
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(private readonly get: (id: string) => WalkyMessage | undefined) {}

  /** A save of `id`: every waiter looks again. */
  wake(id: string): void {
    for (const wake of this.waiters.get(id) ?? []) wake();
  }

  /** The message once its receipt is final (not `accepted`), or as it stands after `ms`. */
  settled(id: string, ms: number): Promise<WalkyMessage> {
    return new Promise((resolve) => {
      const check = () => {
        const m = this.get(id)!;
        if (m.state === 'accepted' && !timedOut) return;
        clearTimeout(timer);
        set.delete(check);
        if (set.size === 0) this.waiters.delete(id);
        resolve(m);
      };
      let timedOut = false;
      const set = this.waiters.get(id) ?? new Set();
      this.waiters.set(id, set);
      set.add(check);
      const timer = setTimeout(() => {
        timedOut = true;
        check();
      }, ms);
      check();
    });
  }
}
