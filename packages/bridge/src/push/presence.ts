/**
 * Whether someone is looking: a device that had the app open and visible within `awayMs`
 * (default 2 minutes) means no push. The app reports `visible` on every change and every 30 s
 * while visible; a report of hidden means it was visible until then.
 */
export class Presence {
  private readonly last = new Map<string, number>();

  constructor(private readonly awayMs: number) {}

  report(device: string, now: number): void {
    this.last.set(device, now);
  }

  looking(now: number): boolean {
    for (const [device, at] of this.last) {
      if (now - at < this.awayMs) return true;
      this.last.delete(device);
    }
    return false;
  }

  forget(device: string): void {
    this.last.delete(device);
  }
}
