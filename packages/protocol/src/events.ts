import { z } from 'zod';
import { Pane, Server, Snapshot } from './pane';
import { SendReceipt } from './send';
import { DURABLE_EVENTS } from './durable/model';
import { WalkyUpdatedEvent } from './walky';
import { NERVE_EVENTS } from './nerve/phone';
import { ChatSubscribe, ChatUnsubscribe, PaneChatMessage } from './pane-chat';
import { SessionChangedEvent } from './sessions';

/**
 * Model events on `/api/events`. Each carries `seq`, one counter per bridge process (the
 * process is named by `run`), strictly increasing by one, so a client that reconnects with
 * `?since=<seq>&run=<run>` resumes where it left off, or is sent `sync.reset` when the
 * bridge no longer holds that far back or is another run.
 */
const base = { seq: z.number().int().positive(), at: z.number() };

export const PaneAdded = z.object({ type: z.literal('pane.added'), ...base, pane: Pane });
export const PaneUpdated = z.object({ type: z.literal('pane.updated'), ...base, pane: Pane });
export const PaneRemoved = z.object({ type: z.literal('pane.removed'), ...base, id: z.string() });
export const ServerAdded = z.object({ type: z.literal('server.added'), ...base, server: Server });
export const ServerUpdated = z.object({ type: z.literal('server.updated'), ...base, server: Server });
export const ServerRemoved = z.object({ type: z.literal('server.removed'), ...base, name: z.string() });
/** A send's receipt changed (made, held, typed, refused). */
export const SendUpdated = z.object({ type: z.literal('send.updated'), ...base, receipt: SendReceipt });
/** A walky talky message was logged, or its receipt changed. */
export const WalkyUpdated = z.object({ ...WalkyUpdatedEvent, ...base });
/** A session appeared or changed in an agent's store (the Sessions page lists it live). */
export const SessionChanged = z.object({ ...SessionChangedEvent, ...base });

export const ModelEvent = z.discriminatedUnion('type', [
  PaneAdded,
  PaneUpdated,
  PaneRemoved,
  ServerAdded,
  ServerUpdated,
  ServerRemoved,
  SendUpdated,
  ...DURABLE_EVENTS,
  WalkyUpdated,
  ...NERVE_EVENTS,
  SessionChanged,
]);
export type ModelEvent = z.infer<typeof ModelEvent>;
export type ModelEventType = ModelEvent['type'];

/** Model events without their envelope, as the engine emits them before sequencing. */
export type ModelChange = ModelEvent extends infer E ? (E extends ModelEvent ? Omit<E, 'seq' | 'at'> : never) : never;

/**
 * One frame of a pane's screen, sent only to clients that subscribed to the pane.
 * Frames are not replayed on resume: a client re-subscribes and gets a fresh frame.
 * `lines` hold the captured rows with their SGR escapes (`capture-pane -e`), secrets masked.
 */
export const PaneScreen = z.object({
  type: z.literal('pane.screen'),
  id: z.string(),
  frame: z.number().int().nonnegative(),
  width: z.number().int(),
  height: z.number().int(),
  cursor: z.object({ x: z.number().int(), y: z.number().int() }).nullable(),
  lines: z.array(z.string()),
});
export type PaneScreen = z.infer<typeof PaneScreen>;

/** First message on every events connection. */
export const Hello = z.object({
  type: z.literal('hello'),
  run: z.string(),
  seq: z.number().int().nonnegative(),
  resumed: z.boolean(),
  /** Whether the device that opened this socket may send (absent from bridges before send rights: yes). */
  maySend: z.boolean().optional(),
});
/** Sent instead of a replay when the client's `since` is too old or from another bridge run. */
export const SyncReset = z.object({ type: z.literal('sync.reset'), snapshot: Snapshot });
/** A problem with something the client sent on the socket; the connection stays open. */
export const SocketError = z.object({ type: z.literal('error'), code: z.string(), message: z.string() });
/**
 * The bridge is stopping on purpose (SIGTERM, SIGINT, `collie stop`): the last message before
 * it closes the socket, so a phone can say "The bridge stopped" instead of guessing, and must
 * not read the panes it stops watching as gone.
 */
export const BridgeStopping = z.object({ type: z.literal('bridge.stopping'), run: z.string(), at: z.number() });
/** The WebSocket close code and reason sent with `bridge.stopping` (1001: going away). */
export const STOPPING_CLOSE = { code: 1001, reason: 'bridge stopping' } as const;

export const ServerMessage = z.discriminatedUnion('type', [
  ...ModelEvent.options,
  PaneScreen,
  Hello,
  SyncReset,
  SocketError,
  BridgeStopping,
  PaneChatMessage,
]);
export type ServerMessage = z.infer<typeof ServerMessage>;

/** Client to bridge, on `/api/events`. */
export const ClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('screen.subscribe'), id: z.string().min(1).max(200) }),
  z.object({ type: z.literal('screen.unsubscribe'), id: z.string().min(1).max(200) }),
  z.object({ type: z.literal('ping') }),
  ChatSubscribe,
  ChatUnsubscribe,
]);
export type ClientMessage = z.infer<typeof ClientMessage>;
