import type { Harness, PaneScreen, ScreenReading, Server } from '@collie/protocol';
import type { EventHub } from '../events/hub';
import { ApiError } from '../http/api-error';
import { Discovery, formatLiteral, type TmuxServer } from '../mux/tmux';
import { harnessOfPane, labelOfPane } from '../panes/pane-facts';
import { PaneTracker } from '../panes/pane-tracker';
import type { openTokenStore } from '../panes/token-file';
import type { Redactor } from '../redact';
import { screenLimit } from '../usage/screen-limit';

type TokenFile = Awaited<ReturnType<typeof openTokenStore>>;

export interface TmuxServersDeps {
  socketDir: string;
  env: NodeJS.ProcessEnv;
  machine: string;
  hub: EventHub;
  tokens: TokenFile;
  redact: Redactor;
  /** After each read of a pane (unread-screens). */
  onRead: (harness: Harness, pid: number, reading: ScreenReading, screen: string) => void;
}

/** Every tmux server discovery finds, one pane tracker each, and what the rest of the bridge asks of them. */
export interface TmuxServers {
  readonly discovery: Discovery;
  /** Each tracker's first listing (then its tokens saved), once discovery has started. */
  readonly started: Promise<void>[];
  /** The servers' names. */
  names(): string[];
  /** `<server>:<%id>` → its tracker and tmux id; null when no tracker has it. */
  locate(id: string): { tracker: PaneTracker; tmuxId: string } | null;
  /** Every session of every server, by name (New pane's list). */
  sessions(): Promise<{ server: string; session: string }[]>;
  /** Opens a window (or a new session) running `argv` in `folder`; the new pane's tmux id. */
  open(server: string, session: string | null, folder: string, argv: readonly string[]): Promise<string>;
  /** A tmux command on a server; `who` names the feature in the not-found error. */
  command(server: string, args: readonly string[], who: string): Promise<string[]>;
  /** Frames of a pane of this machine as they change (the current one first); null when unknown. */
  watchScreen(id: string, send: (f: PaneScreen) => void): (() => void) | null;
  /** Every tracker lists its panes again (walky's rescan). */
  syncStructure(): void;
  /** Discovery stops, every tracker forgets its panes. */
  stop(): void;
}

const serverView = (s: TmuxServer): Server => ({ name: s.name, socket: s.socketPath, pid: s.info?.pid ?? null, connected: s.connected });

/** Discovery of tmux servers and their trackers; started later by `discovery.start()`. */
export function tmuxServers(d: TmuxServersDeps): TmuxServers {
  const { hub, tokens } = d;
  const trackers = new Map<string, PaneTracker>();
  const started: Promise<void>[] = [];
  const discovery = new Discovery({ socketDir: d.socketDir, env: d.env });

  discovery.on('added', (server) => {
    const tracker = new PaneTracker({
      server,
      hub,
      tokens: tokens.store,
      machine: d.machine,
      redact: d.redact,
      harnessOf: harnessOfPane,
      labelOf: labelOfPane,
      onRead: (harness, pid, reading, screen, id) => {
        d.onRead(harness, pid, reading, screen);
        // A usage limit the agent shows on its screen (Claude Code's footer): the pane's usage says so.
        hub.setScreenLimit(id, screenLimit(harness, screen, Date.now()));
      },
    });
    trackers.set(server.name, tracker);
    hub.publish({ type: 'server.added', server: serverView(server) });
    started.push(tracker.start().then(() => tokens.save()));
  });
  discovery.on('removed', (server) => {
    trackers.get(server.name)?.stop();
    trackers.delete(server.name);
    hub.publish({ type: 'server.removed', name: server.name });
  });

  const locate: TmuxServers['locate'] = (id) => {
    const at = id.lastIndexOf(':');
    const tracker = trackers.get(id.slice(0, at));
    const tmuxId = id.slice(at + 1);
    return at > 0 && tracker?.has(tmuxId) ? { tracker, tmuxId } : null;
  };

  return {
    discovery,
    started,
    names: () => [...trackers.keys()],
    locate,
    sessions: async () => {
      const out: { server: string; session: string }[] = [];
      for (const [server, tracker] of trackers) {
        const list = await tracker.sessions().catch(() => []);
        for (const s of list) if (s.name) out.push({ server, session: s.name });
      }
      return out;
    },
    open: async (server, session, folder, argv) => {
      const tracker = trackers.get(server);
      if (!tracker) throw new ApiError('not_found', `new: no tmux server '${server}'`);
      // The session by its id: a name is matched by tmux as a pattern or a prefix.
      const sessionId = session === null ? null : (await tracker.sessions()).find((s) => s.name === session)?.id;
      if (sessionId === undefined) throw new ApiError('not_found', `new: no session '${String(session).slice(0, 100)}' on ${server}`);
      // tmux expands formats in -c (`#(…)` in a folder's name would run): the folder goes as a literal.
      // argv as separate arguments: tmux runs it without a shell, so a folder or flag is never re-split.
      const dir = ['-c', formatLiteral(folder)];
      const where = sessionId === null ? ['new-session', '-d', '-P', '-F', '#{pane_id}', ...dir, '--'] : ['new-window', '-d', '-P', '-F', '#{pane_id}', '-t', `${sessionId}:`, ...dir, '--'];
      const [id] = await tracker.command([...where, ...argv]);
      if (!id || !/^%\d+$/.test(id)) throw new ApiError('internal', `new: tmux answered '${String(id).slice(0, 100)}' for the new pane`);
      return id;
    },
    command: async (server, args, who) => {
      const tracker = trackers.get(server);
      if (!tracker) throw new ApiError('not_found', `${who}: no tmux server '${server}'`);
      return tracker.command(args);
    },
    watchScreen: (id, send) => {
      const at = locate(id);
      if (!at) return null;
      const onFrame = (f: PaneScreen) => f.id === id && send(f);
      at.tracker.on('frame', onFrame);
      const first = at.tracker.currentFrame(at.tmuxId);
      if (first) send(first);
      const unwatch = at.tracker.watchScreen(at.tmuxId);
      return () => {
        unwatch();
        at.tracker.off('frame', onFrame);
      };
    },
    syncStructure: () => {
      for (const t of trackers.values()) void t.syncStructure();
    },
    stop: () => {
      discovery.stop();
      for (const t of trackers.values()) t.stop();
    },
  };
}
