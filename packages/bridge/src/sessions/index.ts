import type { Mask, ModelChange, ModelEvent, Pane, SessionAgent, SessionChat, SessionSummary, SessionsPage, SessionsQuery } from '@collie/protocol';
import { gitLabel } from '../labels';
import { offsetOf } from '../transcripts/chat-log';
import { readerOf } from '../transcripts/finders';
import { type ChatFollower, TranscriptFollower } from '../transcripts/follow';
import { OpencodeFollower } from '../transcripts/opencode-db';
import { RememberedSessions } from './remembered';
import { RunningSessions } from './running';
import type { StoreRoots } from './roots';
import { hasWords, queryWords } from './search-text';
import { type IndexEntry, StoreIndex, keyOf } from './store-index';

export { defaultRoots, type StoreRoots } from './roots';
export { resumeArgs } from './resume-command';

export interface SessionsDeps {
  roots: StoreRoots;
  redact: Mask;
  panes: () => Pane[];
  publish: (change: ModelChange) => void;
  /** Called on every hub event (pane changes update the remembered sessions); returns the unsubscribe. */
  subscribe: (listener: (e: ModelEvent) => void) => () => void;
  stateDir: string;
  /** The tmux servers followed now. */
  servers: () => string[];
  procRoot?: string;
}

/** A session found by agent and id: its entry and what the list shows of it. */
export interface FoundSession {
  readonly entry: IndexEntry;
  readonly summary: SessionSummary;
}

export interface Sessions {
  list(q: SessionsQuery): Promise<SessionsPage>;
  find(agent: SessionAgent, id: string): Promise<FoundSession | null>;
  read(agent: SessionAgent, id: string, before: number | null, limit: number): Promise<SessionChat | null>;
  /** The pane that runs this session now, or null. */
  paneOf(agent: SessionAgent, id: string): Promise<string | null>;
  ready: Promise<void>;
  /** Which sessions ran in which panes, and those that ran when the machine stopped. */
  remembered: RememberedSessions;
  /** The panes are known (discovery done): what ran in a pane that is gone now is offered to resume. */
  panesKnown(): Promise<void>;
  stop(): void;
}

/** Events about one session are sent at most this often (a running session's file grows with every turn). */
const EVENT_EVERY_MS = 2000;

function encodeCursor(e: IndexEntry): string {
  return Buffer.from(JSON.stringify([e.mtime, keyOf(e)])).toString('base64url');
}
function decodeCursor(c: string | undefined): [number, string] | null {
  if (!c) return null;
  try {
    const v: unknown = JSON.parse(Buffer.from(c, 'base64url').toString('utf8'));
    return Array.isArray(v) && typeof v[0] === 'number' && typeof v[1] === 'string' ? [v[0], v[1]] : null;
  } catch {
    return null;
  }
}
/** Newest first; ties by key. */
const order = (a: IndexEntry, b: IndexEntry) => b.mtime - a.mtime || (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0);

/**
 * Every session of every supported agent on this machine, from the agents' own stores (read,
 * never written): an index of their files kept live by watches, heads read only for what a page
 * shows (or a filter needs), the conversation read with the pane Chat's own readers.
 */
export function startSessions(d: SessionsDeps): Sessions {
  const lastSent = new Map<string, number>();
  const running = new RunningSessions(d.panes, d.procRoot ?? '/proc');
  const remembered = new RememberedSessions(d.stateDir, running, d.panes, d.servers);
  let known = false;
  const off = d.subscribe((e) => {
    if (known && (e.type === 'pane.added' || e.type === 'pane.updated' || e.type === 'pane.removed')) remembered.soon();
  });
  const index = new StoreIndex(d.roots, (e) => {
    const k = keyOf(e);
    const now = Date.now();
    if (now - (lastSent.get(k) ?? 0) < EVENT_EVERY_MS) return;
    lastSent.set(k, now);
    void summarize(e).then((session) => session && d.publish({ type: 'session.changed', session }));
  });

  const summarize = async (e: IndexEntry, panes?: Map<string, string>): Promise<SessionSummary | null> => {
    const h = await index.head(e);
    const id = h.id ?? e.nameId;
    if (!id) return null;
    const which = panes ?? (await running.byKey());
    return {
      agent: e.agent,
      id,
      folder: h.folder,
      label: h.folder ? ((await gitLabel(h.folder).catch(() => null)) ?? h.folder.split('/').filter(Boolean).at(-1) ?? h.folder) : null,
      title: h.title !== null ? d.redact(h.title) : h.first !== null ? d.redact(h.first) : null,
      updated: Math.round(e.mtime),
      size: e.size,
      pane: which.get(keyOf(e)) ?? which.get(`${e.agent}#${id}`) ?? null,
      machine: null,
    };
  };

  /** Whether an entry passes the folder filter and has every word (its head read, index.indexed). */
  const matches = (e: IndexEntry, q: SessionsQuery, words: string[]): boolean => {
    if (q.folder !== undefined && e.head?.folder !== q.folder) return false;
    return hasWords(e.text ?? '', words);
  };

  const find = async (agent: SessionAgent, id: string): Promise<FoundSession | null> => {
    await index.ready;
    const candidates = [...index.entries.values()].filter((e) => e.agent === agent && e.nameId !== null && (e.nameId === id || id.startsWith(e.nameId)));
    for (const e of candidates) {
      const h = await index.head(e);
      if ((h.id ?? e.nameId) === id) {
        const summary = await summarize(e);
        if (summary) return { entry: e, summary };
      }
    }
    return null;
  };

  return {
    ready: index.ready,
    remembered,
    async panesKnown() {
      await remembered.start();
      known = true;
    },
    async list(q) {
      await index.ready;
      const words = queryWords(q.q);
      const filtering = q.folder !== undefined || words.length > 0;
      // A filter looks at every head: read when the index was built, so no file is read here.
      if (filtering) await index.indexed;
      const after = decodeCursor(q.cursor);
      const sorted = [...index.entries.values()].sort(order);
      let all = q.agent === undefined ? sorted : sorted.filter((e) => e.agent === q.agent);
      if (after) {
        const [mtime, key] = after;
        all = all.filter((e) => e.mtime < mtime || (e.mtime === mtime && keyOf(e) > key));
      }
      if (filtering) {
        // Entries that came after the index was built: their heads now.
        await Promise.all(all.filter((e) => e.head === undefined).map((e) => index.head(e)));
        all = all.filter((e) => matches(e, q, words));
      }
      const picked = all.slice(0, q.limit);
      const panes = await running.byKey();
      const sessions = (await Promise.all(picked.map((e) => summarize(e, panes)))).filter((s): s is SessionSummary => s !== null);
      const last = picked.at(-1);
      const more = last !== undefined && all.length > picked.length;
      const folders = new Set<string>();
      for (const e of sorted) {
        const f = e.head?.folder;
        if (f) folders.add(f);
        if (folders.size >= 200) break;
      }
      return { sessions, next: more ? encodeCursor(last) : null, folders: [...folders], away: [] };
    },
    find,
    async read(agent, id, before, limit) {
      const found = await find(agent, id);
      if (!found) return null;
      const { entry } = found;
      const on = { items: () => undefined, reset: () => undefined };
      let f: ChatFollower;
      const reader = readerOf(agent);
      if (!reader) return null;
      f = reader.kind === 'lines' ? await TranscriptFollower.open(entry.path, reader.parse, d.redact, on) : await OpencodeFollower.open(entry.path, id, d.redact, on);
      try {
        if (before !== null) await f.older(before, limit);
        const items = f.log.page(before, limit);
        const first = items[0];
        const more = first !== undefined && (f.log.items[0] !== first || !f.atStart);
        return { session: found.summary, items, before: more ? String(offsetOf(first.id)) : null };
      } finally {
        f.close();
      }
    },
    async paneOf(agent, id) {
      const found = await find(agent, id);
      return found?.summary.pane ?? null;
    },
    stop() {
      off();
      remembered.close();
      index.close();
    },
  };
}
