import { durableSnapshot, emptyDurable, foldDurable, type ModelChange, type ModelEvent, type Pane, type PaneUsage, type SendReceipt, type Server, type Snapshot } from '@collie/protocol';

export type Listener = (event: ModelEvent) => void;

/** How many events a reconnecting client can resume across before it gets a snapshot. */
export const REPLAY_LIMIT = 5000;
/** Receipts kept per pane for the phone's list of recent sends. */
export const SENDS_PER_PANE = 10;

/**
 * The model the phone sees, and the ordered stream of its changes. Every change gets the
 * next sequence number; a bounded buffer lets a client that dropped resume with `since`.
 * Pure apart from the clock it is given.
 */
export class EventHub {
  private seq = 0;
  private readonly buffer: ModelEvent[] = [];
  private readonly listeners = new Set<Listener>();
  readonly panes = new Map<string, Pane>();
  readonly servers = new Map<string, Server>();
  /** The latest receipts per pane, oldest first. */
  readonly sends = new Map<string, SendReceipt[]>();
  /** Durable agents, their open conversations and items. */
  readonly durable = emptyDurable();

  constructor(
    readonly machine: string,
    readonly run: string,
    private readonly now: () => number = Date.now,
  ) {}

  get lastSeq(): number {
    return this.seq;
  }

  /** Each pane's usage as its agent's records say (the transcripts' usage feed sets it); kept on the pane across its updates. */
  readonly #usage = new Map<string, PaneUsage>();

  /** A usage limit the agent's screen shows reached (Claude Code's footer), by pane. */
  readonly #screenLimit = new Map<string, PaneUsage>();

  /** Sets a pane's usage from its transcript (null: none) and publishes the pane with it. */
  setUsage(id: string, usage: PaneUsage | null): void {
    if (usage) this.#usage.set(id, usage);
    else if (!this.#usage.delete(id)) return;
    this.#republish(id);
  }

  /** Sets the usage limit the pane's screen shows reached now (null: none shown). */
  setScreenLimit(id: string, resetsAt: string | null | undefined): void {
    const was = this.#screenLimit.get(id);
    if (resetsAt === null) {
      if (!this.#screenLimit.delete(id)) return;
    } else {
      if (was && was.limit?.resetsAt === resetsAt) return;
      this.#screenLimit.set(id, { limit: { state: 'reached', ...(resetsAt ? { resetsAt } : {}), source: 'screen' }, source: 'screen', at: this.now() });
    }
    this.#republish(id);
  }

  /** The pane's usage: its transcript's, with the limit its screen shows reached over the recorded one. */
  #usageOf(id: string): PaneUsage | undefined {
    const recorded = this.#usage.get(id);
    const shown = this.#screenLimit.get(id);
    if (!shown) return recorded;
    return recorded ? { ...recorded, limit: shown.limit } : shown;
  }

  #republish(id: string): void {
    const pane = this.panes.get(id);
    if (!pane) return;
    const { usage: _was, ...rest } = pane;
    const usage = this.#usageOf(id);
    this.publish({ type: 'pane.updated', pane: usage ? { ...rest, usage } : rest });
  }

  /**
   * Keeps a pane's receipts: all of them while the pane is in the model (or not found yet: the
   * receipts of earlier runs come before the panes); once it is removed, only the sends still
   * under way (they end, and its entry goes, so panes made and killed leave nothing behind).
   * The ended sends of a gone pane are on their events and in the receipt store.
   */
  #keepSends(paneId: string, list: SendReceipt[]): void {
    const kept = this.#gone.has(paneId) ? list.filter((r) => !r.final) : list;
    if (kept.length > 0) this.sends.set(paneId, kept);
    else {
      this.sends.delete(paneId);
      this.#gone.delete(paneId);
    }
  }

  /** Panes removed while sends to them were still under way (none once those have ended). */
  readonly #gone = new Set<string>();

  publish(change: ModelChange): ModelEvent {
    if ((change.type === 'pane.added' || change.type === 'pane.updated') && change.pane.usage === undefined) {
      const usage = this.#usageOf(change.pane.id);
      if (usage) change = { ...change, pane: { ...change.pane, usage } };
    }
    if (change.type === 'pane.removed') {
      this.#usage.delete(change.id);
      this.#screenLimit.delete(change.id);
    }
    switch (change.type) {
      case 'pane.added':
      case 'pane.updated':
        this.panes.set(change.pane.id, change.pane);
        this.#gone.delete(change.pane.id);
        break;
      case 'pane.removed':
        this.panes.delete(change.id);
        this.#gone.add(change.id);
        this.#keepSends(change.id, this.sends.get(change.id) ?? []);
        break;
      case 'server.added':
      case 'server.updated':
        this.servers.set(change.server.name, change.server);
        break;
      case 'server.removed':
        this.servers.delete(change.name);
        break;
      case 'send.updated': {
        const list = (this.sends.get(change.receipt.paneId) ?? []).filter((r) => r.requestId !== change.receipt.requestId);
        list.push(change.receipt);
        // Every send still under way stays; of the ended ones, the latest.
        const finals = list.filter((r) => r.final).slice(-SENDS_PER_PANE);
        this.#keepSends(change.receipt.paneId, list.filter((r) => !r.final || finals.includes(r)));
        break;
      }
      case 'durable.agent.updated':
      case 'durable.agent.removed':
      case 'durable.conversation.updated':
      case 'durable.conversation.removed':
      case 'durable.item.updated':
        foldDurable(this.durable, change);
        break;
      case 'walky.updated':
        break; // the log is walky's own; the phone follows the event
      case 'session.changed':
        break; // the list is the agents' stores; the phone follows the event
      case 'nerve.event':
      case 'nerve.link':
        break; // the roster is Nerve's own; the phone reads it through /api/nerve and follows the events
    }
    const event = { ...change, seq: ++this.seq, at: this.now() } as ModelEvent;
    this.buffer.push(event);
    if (this.buffer.length > REPLAY_LIMIT) this.buffer.splice(0, this.buffer.length - REPLAY_LIMIT);
    for (const l of this.listeners) l(event);
    return event;
  }

  snapshot(): Snapshot {
    return {
      version: 1,
      run: this.run,
      seq: this.seq,
      machine: this.machine,
      servers: [...this.servers.values()],
      panes: [...this.panes.values()],
      sends: [...this.sends.values()].flat(),
      durable: durableSnapshot(this.durable),
    };
  }

  /** Events after `since`, or null when they are no longer all held (send a snapshot). */
  since(since: number): ModelEvent[] | null {
    if (since > this.seq || since < 0) return null;
    if (since === this.seq) return [];
    const first = this.buffer[0];
    if (!first || first.seq > since + 1) return null;
    return this.buffer.slice(since - first.seq + 1);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
