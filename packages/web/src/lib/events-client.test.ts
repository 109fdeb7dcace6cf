import type { PaneScreen, ServerMessage, Snapshot } from '@collie/protocol';
import { describe, expect, it } from 'vitest';
import { makePane, makeSnapshot } from '../../test/fixtures';
import { EventsClient } from './events-client';
import type { ResumePoint, SocketHandlers } from './events-deps';

/** One socket the client opened: what it was opened with, what it sent, and the bridge's end. */
interface FakeSocket {
  readonly from: ResumePoint;
  readonly sent: unknown[];
  closed: boolean;
  deliver(message: ServerMessage | string): void;
  drop(): void;
}

/** The client's world in memory: a snapshot endpoint, sockets and timers the test drives. */
function harness(snapshots: Snapshot[]) {
  const sockets: FakeSocket[] = [];
  const timers: { run: () => void; ms: number; cancelled: boolean }[] = [];
  const logs: string[] = [];
  const clock = { now: 1_000, visible: true };
  let fetches = 0;
  const client = new EventsClient({
    fetchSnapshot: async () => {
      const snapshot = snapshots[Math.min(fetches, snapshots.length - 1)];
      fetches++;
      if (!snapshot) throw new Error('bridge down');
      return snapshot;
    },
    openSocket: (from, handlers: SocketHandlers) => {
      const socket: FakeSocket = {
        from,
        sent: [],
        closed: false,
        deliver: (message) => handlers.onMessage(typeof message === 'string' ? message : JSON.stringify(message)),
        drop: () => handlers.onClose(),
      };
      sockets.push(socket);
      return { send: (text) => socket.sent.push(JSON.parse(text)), close: () => void (socket.closed = true) };
    },
    setTimer: (run, ms) => {
      const timer = { run, ms, cancelled: false };
      timers.push(timer);
      return timer;
    },
    clearTimer: (handle) => void ((handle as { cancelled: boolean }).cancelled = true),
    random: () => 0,
    log: (message) => void logs.push(message),
    now: () => clock.now,
    visible: () => clock.visible,
  });
  /** Runs the one pending timer and waits for the reconnect it starts. */
  const fireTimer = async (): Promise<number> => {
    const pending = timers.filter((timer) => !timer.cancelled);
    expect(pending).toHaveLength(1);
    const timer = pending[0]!;
    timer.cancelled = true;
    timer.run();
    await Promise.resolve();
    await Promise.resolve();
    return timer.ms;
  };
  const last = (): FakeSocket => sockets[sockets.length - 1]!;
  return { client, sockets, last, fireTimer, logs, clock, fetches: () => fetches };
}

const pane = (n: number, state: 'idle' | 'blocked' = 'idle') => makePane({ id: `default:%${n}`, state });
const hello = (seq: number, resumed = true): ServerMessage => ({ type: 'hello', run: 'run-a', seq, resumed });
const added = (seq: number): ServerMessage => ({ type: 'pane.added', seq, at: 0, pane: pane(seq) });

describe('EventsClient', () => {
  it('loads the snapshot, then streams from its seq and run', async () => {
    const { client, last } = harness([makeSnapshot(5, [pane(1)])]);
    await client.start();
    expect(last().from).toEqual({ since: 5, run: 'run-a' });
    expect(client.getState().connection).toBe('connecting');
    expect(client.getState().model?.panes.size).toBe(1);

    last().deliver(hello(6));
    last().deliver(added(6));
    expect(client.getState().connection).toBe('live');
    expect(client.getState().model?.seq).toBe(6);
    expect(client.getState().model?.panes.has('default:%6')).toBe(true);
  });

  it("takes this device's send right from each hello: absent (an older bridge) means it may send", async () => {
    const { client, last, sockets, fireTimer } = harness([makeSnapshot(5, [pane(1)])]);
    await client.start();
    expect(client.getState().maySend).toBe(true);
    last().deliver({ type: 'hello', run: 'run-a', seq: 5, resumed: true, maySend: false });
    expect(client.getState()).toMatchObject({ connection: 'live', maySend: false });
    // The bridge closes the socket when the right changes; the next hello carries the new one.
    last().drop();
    await fireTimer();
    expect(sockets).toHaveLength(2);
    last().deliver(hello(5));
    expect(client.getState()).toMatchObject({ connection: 'live', maySend: true });
  });

  it('drops and logs messages that are not JSON or fail the schema, changing nothing', async () => {
    const { client, last, logs } = harness([makeSnapshot(5, [pane(1)])]);
    await client.start();
    last().deliver(hello(5));
    const before = client.getState();
    last().deliver('{not json');
    last().deliver(JSON.stringify({ type: 'pane.added', seq: 6, at: 0, pane: { id: 'x' } }));
    last().deliver(JSON.stringify({ type: 'pane.exploded', seq: 6 }));
    expect(client.getState()).toBe(before);
    expect(logs).toHaveLength(3);
  });

  it('reconnects after a drop with backoff, resuming from the last seq without a new snapshot', async () => {
    const { client, sockets, last, fireTimer, fetches } = harness([makeSnapshot(5, [pane(1)])]);
    await client.start();
    last().deliver(hello(5));
    last().deliver(added(6));
    last().drop();
    expect(client.getState().connection).toBe('reconnecting');
    expect(await fireTimer()).toBe(250);
    expect(sockets).toHaveLength(2);
    expect(last().from).toEqual({ since: 6, run: 'run-a' });
    expect(fetches()).toBe(1);
    last().drop();
    expect(await fireTimer()).toBe(500);
    last().deliver(hello(6));
    expect(client.getState().connection).toBe('live');
  });

  it('on a gap in seq, closes the socket, reloads the snapshot and resumes from it', async () => {
    const { client, sockets, last, fireTimer, fetches } = harness([
      makeSnapshot(5, [pane(1)]),
      makeSnapshot(9, [pane(1), pane(8, 'blocked')]),
    ]);
    await client.start();
    last().deliver(hello(9));
    last().deliver(added(6));
    last().deliver(added(8));
    expect(sockets[0]!.closed).toBe(true);
    expect(client.getState().model?.seq).toBe(6);
    await fireTimer();
    expect(fetches()).toBe(2);
    expect(last().from).toEqual({ since: 9, run: 'run-a' });
    expect(client.getState().model?.panes.get('default:%8')?.state).toBe('blocked');
    // Late messages from the abandoned socket are ignored.
    sockets[0]!.deliver(added(10));
    expect(client.getState().model?.seq).toBe(9);
  });

  it('takes the snapshot of sync.reset when the bridge restarted', async () => {
    const { client, last } = harness([makeSnapshot(50, [pane(1)])]);
    await client.start();
    last().deliver({ type: 'hello', run: 'run-b', seq: 2, resumed: false });
    last().deliver({ type: 'sync.reset', snapshot: makeSnapshot(2, [pane(4)], undefined, 'run-b') });
    expect(client.getState().model?.run).toBe('run-b');
    expect([...(client.getState().model?.panes.keys() ?? [])]).toEqual(['default:%4']);
  });

  it('refreshes a followed chat after a sync.reset: subscribes again and takes the new first page whole', async () => {
    const { client, last, fireTimer } = harness([makeSnapshot(5, [pane(1)])]);
    await client.start();
    let calls = 0;
    const stop = client.watchChat('default:%1', () => calls++);
    last().deliver(hello(5));
    expect(last().sent).toEqual([{ type: 'chat.subscribe', id: 'default:%1' }]);
    const source = { agent: 'claude', path: '/t/a.jsonl', session: 'a' };
    const said = (id: string, text: string) => ({ kind: 'markdown' as const, id, at: 0, final: true, text, shortened: false, href: null, receipt: false });
    const chat = (reset: boolean, items: ReturnType<typeof said>[], path = source.path): ServerMessage => ({ type: 'pane.chat', id: 'default:%1', reset, source: { ...source, path }, reason: null, items, before: null });
    last().deliver(chat(true, [said('10', 'before the restart')]));
    last().deliver(chat(false, [said('20', 'still the old run')]));
    expect(client.chats.state('default:%1')?.items.map((i) => ('text' in i ? i.text : ''))).toEqual(['before the restart', 'still the old run']);

    // The bridge restarts while the agent goes on (here: in a new transcript after /clear).
    last().drop();
    await fireTimer();
    last().deliver({ type: 'hello', run: 'run-b', seq: 1, resumed: false });
    expect(last().sent).toEqual([{ type: 'chat.subscribe', id: 'default:%1' }]);
    last().deliver({ type: 'sync.reset', snapshot: makeSnapshot(1, [pane(1)], undefined, 'run-b') });
    // Until the new first page arrives, the chat keeps what it showed.
    expect(client.chats.state('default:%1')?.items).toHaveLength(2);
    last().deliver(chat(true, [said('5', 'after the restart')], '/t/b.jsonl'));
    expect(client.chats.state('default:%1')).toMatchObject({ source: { path: '/t/b.jsonl' }, items: [{ text: 'after the restart' }] });
    expect(calls).toBeGreaterThanOrEqual(3);
    stop();
    expect(last().sent.at(-1)).toEqual({ type: 'chat.unsubscribe', id: 'default:%1' });
  });

  it('subscribes watched screens once live, re-subscribes after a reconnect, and unsubscribes', async () => {
    const { client, last, fireTimer } = harness([makeSnapshot(5, [pane(1)])]);
    await client.start();
    let calls = 0;
    const stop = client.watchScreen('default:%1', () => calls++);
    expect(last().sent).toEqual([]);
    last().deliver(hello(5));
    expect(last().sent).toEqual([{ type: 'screen.subscribe', id: 'default:%1' }]);

    const frame: PaneScreen = { type: 'pane.screen', id: 'default:%1', frame: 1, width: 80, height: 2, cursor: null, lines: ['hi', ''] };
    last().deliver(frame);
    last().deliver({ ...frame, id: 'default:%2' });
    expect(calls).toBe(1);
    expect(client.screen('default:%1')?.lines).toEqual(['hi', '']);

    last().drop();
    await fireTimer();
    last().deliver(hello(5));
    expect(last().sent).toEqual([{ type: 'screen.subscribe', id: 'default:%1' }]);
    stop();
    expect(last().sent).toEqual([
      { type: 'screen.subscribe', id: 'default:%1' },
      { type: 'screen.unsubscribe', id: 'default:%1' },
    ]);
    expect(client.screen('default:%1')).toBeNull();
  });

  it('retries a failed snapshot with backoff and reconnects at once on wake', async () => {
    const { client, sockets, logs } = harness([]);
    await client.start();
    expect(client.getState()).toEqual({ model: null, connection: 'reconnecting', down: { since: 1_000, why: 'lost' }, maySend: true });
    expect(logs[0]).toMatch(/snapshot/);
    expect(sockets).toHaveLength(0);
    await client.wake();
    expect(logs).toHaveLength(2);
  });

  it('sends a ping on wake while live, and stops for good on stop', async () => {
    const { client, last } = harness([makeSnapshot(5, [])]);
    await client.start();
    last().deliver(hello(5));
    await client.wake();
    expect(last().sent).toEqual([{ type: 'ping' }]);
    client.stop();
    expect(last().closed).toBe(true);
  });

  // Issue 17: a stopped bridge never looks like dead agents.
  it('keeps the model when the bridge says it is stopping, and says so with the time it went down', async () => {
    const { client, last, clock, fireTimer } = harness([makeSnapshot(5, [pane(1)])]);
    await client.start();
    last().deliver(hello(5));
    expect(client.getState().down).toBeNull();
    clock.now = 42_000;
    last().deliver({ type: 'bridge.stopping', run: 'run-a', at: 41_999 });
    expect(last().closed).toBe(true);
    expect(client.getState()).toMatchObject({ connection: 'reconnecting', down: { since: 42_000, why: 'stopped' } });
    expect(client.getState().model?.panes.size).toBe(1);
    // The close that follows, and the refused retries, keep the surer reason and the first time.
    last().drop();
    clock.now = 50_000;
    expect(await fireTimer()).toBeLessThanOrEqual(1_000);
    expect(client.getState().down).toEqual({ since: 42_000, why: 'stopped' });
    last().deliver(hello(5));
    expect(client.getState().down).toBeNull();
  });

  it('goes down at once on the offline event and retries within a second while visible, slower while hidden', async () => {
    const { client, last, clock, fireTimer } = harness([makeSnapshot(5, [pane(1)])]);
    await client.start();
    last().deliver(hello(5));
    client.offline();
    expect(last().closed).toBe(true);
    expect(client.getState().down?.why).toBe('offline');
    for (let i = 0; i < 6; i++) {
      expect(await fireTimer()).toBeLessThanOrEqual(1_000);
      last().drop();
    }
    clock.visible = false;
    let waited = 0;
    for (let i = 0; i < 6; i++) {
      waited = await fireTimer();
      last().drop();
    }
    expect(waited).toBeGreaterThan(1_000);
    expect(client.getState().down?.why).toBe('offline');
  });
});
