/** Who waits for a pane's next output (a send that wants to see the agent draw), per tmux id. */
export class OutputWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();

  /** The pane printed: every waiter on it resolves true. */
  fire(tmuxId: string): void {
    const waiters = this.waiting.get(tmuxId);
    if (waiters) {
      this.waiting.delete(tmuxId);
      for (const fire of waiters) fire();
    }
  }

  /** Resolves true at the pane's next output, false after `ms` without. */
  next(tmuxId: string, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const waiters = this.waiting.get(tmuxId) ?? new Set<() => void>();
      this.waiting.set(tmuxId, waiters);
      const done = (drawn: boolean) => {
        clearTimeout(timer);
        waiters.delete(fire);
        if (waiters.size === 0 && this.waiting.get(tmuxId) === waiters) this.waiting.delete(tmuxId);
        resolve(drawn);
      };
      const fire = () => done(true);
      const timer = setTimeout(() => done(false), ms);
      waiters.add(fire);
    });
  }
}
