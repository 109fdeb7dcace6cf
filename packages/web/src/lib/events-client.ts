import { type ClientMessage, type PaneScreen, ServerMessage } from '@collie/protocol';
import { BACKOFF_VISIBLE_MAX_MS, backoffDelay } from './backoff';
import { type Model, modelFromSnapshot } from './model';
import type { EventsClientDeps, SocketConn } from './events-deps';
import { ScreenWatches } from './screen-watches';
import { ChatWatches } from './pane-chat/chat-watches';
import { type SyncState, receive, startSync } from './sync';

/** `connecting` until the first hello; `reconnecting` whenever the stream is down after that. */
export type Connection = 'connecting' | 'live' | 'reconnecting';

/**
 * Why the stream is down and since when: `stopped` when the bridge said it was stopping on
 * purpose, `offline` when the browser lost its network, `lost` for anything else (a crash, a
 * kill, a dropped link). The page keeps its last view, with its timers frozen at `since`.
 */
export interface Down {
  readonly since: number;
  readonly why: 'stopped' | 'offline' | 'lost';
}

export interface ClientState {
  readonly model: Model | null;
  readonly connection: Connection;
  /** Null while live (and while the first connection is made). */
  readonly down: Down | null;
  /** This device's send right, from the last hello (a watch-only device reads and sends nothing). */
  readonly maySend: boolean;
}

/**
 * Keeps the model current from the bridge: snapshot first, then `/api/events?since=<seq>&run=<run>`,
 * every message validated. A drop reconnects with backoff and resumes from the last seq (or
 * takes the `sync.reset` snapshot the bridge sends when it cannot replay that far, or restarted);
 * a gap in seq refetches the snapshot. Screens are subscribed per watched pane and
 * re-subscribed on every new connection, since the bridge does not replay frames.
 */
export class EventsClient {
  readonly #deps: EventsClientDeps;
  #state: ClientState = { model: null, connection: 'connecting', down: null, maySend: true };
  readonly #listeners = new Set<() => void>();
  readonly #screens = new ScreenWatches();
  /** Panes' chats the page shows (`chat.subscribe`), re-subscribed on every connection like screens. */
  readonly chats = new ChatWatches();
  #conn: SocketConn | null = null;
  #sync: SyncState | null = null;
  #live = false;
  #needSnapshot = true;
  #attempt = 0;
  #gapStreak = 0;
  #timer: unknown = null;
  #generation = 0;
  #stopped = false;

  constructor(deps: EventsClientDeps) {
    this.#deps = deps;
  }

  /** Resolves once the first socket is open, or the first attempt has failed and a retry is set. */
  start(): Promise<void> {
    this.#stopped = false;
    return this.#connect();
  }

  stop(): void {
    this.#stopped = true;
    this.#generation++;
    this.#cancelTimer();
    const conn = this.#conn;
    this.#conn = null;
    this.#sync = null;
    this.#live = false;
    conn?.close();
  }

  /**
   * The browser says it lost the network: a socket may linger for a minute before it notices,
   * so the page says so at once and stops trusting it.
   */
  offline(): void {
    if (this.#stopped) return;
    const conn = this.#conn;
    this.#drop('offline');
    conn?.close();
    if (this.#timer === null) this.#retry(this.#attempt++);
  }

  /** The page came back to the foreground or the network returned: retry now instead of waiting. */
  wake(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (this.#timer !== null) {
      this.#cancelTimer();
      this.#attempt = 0;
      return this.#connect();
    }
    // A socket that died while the phone slept fails on write, which closes it and reconnects.
    if (this.#live) this.#send({ type: 'ping' });
    return Promise.resolve();
  }

  readonly getState = (): ClientState => this.#state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** The last frame of a watched pane, or null before the first one arrives. */
  screen(id: string): PaneScreen | null {
    return this.#screens.frame(id);
  }

  /** Follows a pane's screen until the returned function is called. */
  watchScreen(id: string, listener: () => void): () => void {
    if (this.#screens.add(id, listener) && this.#live) this.#send({ type: 'screen.subscribe', id });
    return () => {
      if (this.#screens.remove(id, listener) && this.#live) this.#send({ type: 'screen.unsubscribe', id });
    };
  }

  /** Follows a pane's chat until the returned function is called. */
  watchChat(id: string, listener: () => void): () => void {
    if (this.chats.add(id, listener) && this.#live) this.#send({ type: 'chat.subscribe', id });
    return () => {
      if (this.chats.remove(id, listener) && this.#live) this.#send({ type: 'chat.unsubscribe', id });
    };
  }

  async #connect(): Promise<void> {
    const generation = ++this.#generation;
    this.#timer = null;
    if (this.#needSnapshot || this.#state.model === null) {
      try {
        const snapshot = await this.#deps.fetchSnapshot();
        if (generation !== this.#generation) return;
        this.#needSnapshot = false;
        this.#publish({ ...this.#state, model: modelFromSnapshot(snapshot) });
      } catch (error) {
        if (generation !== this.#generation) return;
        this.#deps.log('events: could not load the snapshot', error);
        this.#markDown('lost');
        this.#retry(this.#attempt++);
        return;
      }
    }
    const model = this.#state.model;
    if (model === null) return;
    this.#sync = startSync(model);
    this.#conn = this.#deps.openSocket({ since: model.seq, run: model.run }, {
      onMessage: (text) => {
        if (generation === this.#generation) this.#onMessage(text);
      },
      onClose: () => {
        if (generation !== this.#generation) return;
        this.#drop();
        this.#retry(this.#attempt++);
      },
    });
  }

  #onMessage(text: string): void {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.#deps.log('events: dropped a message that is not JSON', text.slice(0, 200));
      return;
    }
    const parsed = ServerMessage.safeParse(json);
    if (!parsed.success) {
      this.#deps.log('events: dropped an invalid message', parsed.error.issues);
      return;
    }
    const message = parsed.data;
    if (message.type === 'pane.screen') return this.#screens.deliver(message);
    if (message.type === 'pane.chat') return this.chats.deliver(message);
    if (message.type === 'error') return this.#deps.log(`events: bridge error ${message.code}: ${message.message}`);
    if (message.type === 'bridge.stopping') return this.#stoppedByBridge();
    if (this.#sync === null) return;
    const result = receive(this.#sync, message);
    this.#sync = result.state;
    if (result.resync) {
      this.#deps.log(`events: lost the thread at ${message.type}; reloading the snapshot`);
      this.#needSnapshot = true;
      const conn = this.#conn;
      this.#drop();
      conn?.close();
      this.#retry(this.#gapStreak++);
      return;
    }
    if (message.type === 'hello') this.#onHello(message.maySend ?? true);
    else if (message.type !== 'sync.reset') this.#gapStreak = 0;
    if (result.state.model !== this.#state.model) this.#publish({ ...this.#state, model: result.state.model });
  }

  #onHello(maySend: boolean): void {
    this.#live = true;
    this.#attempt = 0;
    for (const id of this.#screens.ids()) this.#send({ type: 'screen.subscribe', id });
    for (const id of this.chats.ids()) this.#send({ type: 'chat.subscribe', id });
    this.#publish({ ...this.#state, connection: 'live', down: null, maySend });
  }

  /** The bridge stops on purpose; its close follows. Retry from now on, as after any drop. */
  #stoppedByBridge(): void {
    const conn = this.#conn;
    this.#drop('stopped');
    conn?.close();
    this.#retry(this.#attempt++);
  }

  /**
   * Forgets the current socket (its late callbacks are ignored) and shows the stream as down.
   * The bridge's `bridge.stopping` comes just before its close: the close keeps that reason.
   */
  #drop(why: Down['why'] = 'lost'): void {
    this.#generation++;
    this.#conn = null;
    this.#sync = null;
    this.#live = false;
    this.#markDown(why);
  }

  /** Down since the first drop; a later, surer reason (stopped, offline) replaces a guess. */
  #markDown(why: Down['why']): void {
    const down = this.#state.down;
    const since = down?.since ?? (this.#deps.now ?? Date.now)();
    const kept = down !== null && (why === 'lost' || down.why === why) ? down : { since, why };
    if (this.#state.connection === 'reconnecting' && kept === down) return;
    this.#publish({ ...this.#state, connection: 'reconnecting', down: kept });
  }

  #retry(attempt: number): void {
    if (this.#stopped) return;
    this.#cancelTimer();
    const visible = this.#deps.visible?.() ?? true;
    const delay = visible ? backoffDelay(attempt, this.#deps.random, BACKOFF_VISIBLE_MAX_MS) : backoffDelay(attempt, this.#deps.random);
    this.#timer = this.#deps.setTimer(() => void this.#connect(), delay);
  }

  #cancelTimer(): void {
    if (this.#timer !== null) this.#deps.clearTimer(this.#timer);
    this.#timer = null;
  }

  #send(message: ClientMessage): void {
    this.#conn?.send(JSON.stringify(message));
  }

  #publish(state: ClientState): void {
    this.#state = state;
    for (const listener of this.#listeners) listener();
  }
}
