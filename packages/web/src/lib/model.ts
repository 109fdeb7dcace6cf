import { durableFromSnapshot, type DurableState, type Pane, type Server, type Snapshot, type WalkyMessage } from '@collie/protocol';
import { type PaneReceipts, receiptsFrom } from './receipts';
import type { NerveFold } from './nerve/fold';

/**
 * The client's copy of the bridge's model: what `GET /api/snapshot` returns, kept current by
 * folding `/api/events` into it. `run` and `seq` (the last event folded in) are where a reconnect resumes.
 */
export interface Model {
  /** The bridge process the model came from: its `seq` numbers mean nothing to another run. */
  readonly run: string;
  readonly seq: number;
  /** The `seq` of the last `session.changed`: the Sessions page reads its list again when it moves. */
  readonly sessionSeq?: number;
  readonly machine: string;
  readonly servers: ReadonlyMap<string, Server>;
  readonly panes: ReadonlyMap<string, Pane>;
  /** Each pane's latest send receipts, newest last. */
  readonly sends: PaneReceipts;
  /** Durable agents, their open conversations and items. */
  readonly durable: DurableState;
  /** Walky messages changed since the snapshot, by id (the log itself is fetched: lib/walky). */
  readonly walky?: ReadonlyMap<string, WalkyMessage>;
  /** Nerve's roster events since the snapshot (the roster itself is fetched: lib/nerve). */
  readonly nerve?: NerveFold;
}

export function modelFromSnapshot(snapshot: Snapshot): Model {
  return {
    run: snapshot.run,
    seq: snapshot.seq,
    machine: snapshot.machine,
    servers: new Map(snapshot.servers.map((server) => [server.name, server])),
    panes: new Map(snapshot.panes.map((pane) => [pane.id, pane])),
    sends: receiptsFrom(snapshot.sends),
    durable: durableFromSnapshot(snapshot.durable),
  };
}
