import type { AgentEventInput } from '@collie/protocol';

type Logged = Exclude<AgentEventInput, { type: 'ping' } | { type: 'sync' }>;
export type EventBody = Logged extends infer E ? (E extends Logged ? Omit<E, 'cursor'> : never) : never;

/**
 * The agent's side of the resumable stream: every change gets the next cursor and is kept
 * (the newest `keep`), so a bridge that reconnects with `since` gets exactly what it missed;
 * older or foreign positions get a `sync` instead.
 */
export class EventLog {
  private cursor = 0;
  private readonly kept: AgentEventInput[] = [];
  private readonly listeners = new Set<(e: AgentEventInput) => void>();

  constructor(private readonly keep = 10_000) {}

  get last(): number {
    return this.cursor;
  }

  push(body: EventBody): void {
    const event = { ...body, cursor: ++this.cursor } as AgentEventInput;
    this.kept.push(event);
    if (this.kept.length > this.keep) this.kept.splice(0, this.kept.length - this.keep);
    for (const l of this.listeners) l(event);
  }

  /** The events after `since`, or null when they are not all kept. */
  since(since: number): AgentEventInput[] | null {
    if (since > this.cursor || since < 0) return null;
    if (since === this.cursor) return [];
    const first = this.kept[0];
    if (!first || !('cursor' in first) || first.cursor > since + 1) return null;
    return this.kept.slice(since - first.cursor + 1);
  }

  subscribe(l: (e: AgentEventInput) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
}
