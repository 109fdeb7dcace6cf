import type { ModelEvent, Snapshot } from '@collie/protocol';
import { type Model, modelFromSnapshot } from './model';
import { applyEvent } from './reducer';

/**
 * Where one events connection stands:
 * - `awaiting-hello`: the socket is open with `?since=<model.seq>&run=<model.run>`; the bridge speaks first.
 * - `awaiting-reset`: the bridge said it cannot replay from there (`resumed: false`), so the
 *   next message must be `sync.reset` with a fresh snapshot.
 * - `streaming`: events arrive with `seq` strictly +1 from `model.seq`.
 */
export type SyncPhase = 'awaiting-hello' | 'awaiting-reset' | 'streaming';

export interface SyncState {
  readonly phase: SyncPhase;
  readonly model: Model;
}

/** The messages that move the model; screens and socket errors are routed elsewhere. */
export type SyncMessage =
  | { readonly type: 'hello'; readonly run: string; readonly seq: number; readonly resumed: boolean }
  | { readonly type: 'sync.reset'; readonly snapshot: Snapshot }
  | ModelEvent;

/**
 * `resync: true` means this connection can no longer be trusted to continue the model
 * (a gap in `seq`, or a bridge that contradicts itself): drop it, refetch the snapshot and
 * reconnect from the snapshot's `seq`.
 */
export interface SyncResult {
  readonly state: SyncState;
  readonly resync: boolean;
}

export function startSync(model: Model): SyncState {
  return { phase: 'awaiting-hello', model };
}

export function receive(state: SyncState, message: SyncMessage): SyncResult {
  switch (message.type) {
    case 'hello':
      if (!message.resumed) return ok({ ...state, phase: 'awaiting-reset' });
      // A bridge that claims to resume another run's numbers, or a count behind ours, cannot
      // continue this model: start over from a snapshot rather than fold in the wrong events.
      if (message.run !== state.model.run || message.seq < state.model.seq) return resync(state);
      return ok({ ...state, phase: 'streaming' });
    case 'sync.reset':
      return ok({ phase: 'streaming', model: modelFromSnapshot(message.snapshot) });
    default:
      return receiveEvent(state, message);
  }
}

function receiveEvent(state: SyncState, event: ModelEvent): SyncResult {
  // Events before the promised reset would be folded into a model the bridge has given up on.
  if (state.phase === 'awaiting-reset') return resync(state);
  // A replay may overlap what the snapshot already holds; those events are already folded in.
  if (event.seq <= state.model.seq) return ok(state);
  if (event.seq !== state.model.seq + 1) return resync(state);
  return ok({ ...state, model: applyEvent(state.model, event) });
}

function ok(state: SyncState): SyncResult {
  return { state, resync: false };
}

function resync(state: SyncState): SyncResult {
  return { state, resync: true };
}
