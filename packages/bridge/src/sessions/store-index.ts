import { type FSWatcher, watch } from 'node:fs';
import { join } from 'node:path';
import type { SessionAgent } from '@collie/protocol';
import { GeminiProjects, type SessionHead, readHead } from './heads';
import { opencodeDb, opencodeSessions } from './opencode-store';
import type { StoreRoots } from './roots';
import { LAYOUT, fileAt, walkStore } from './walk';

type FileAgent = Exclude<SessionAgent, 'opencode'>;
const FILE_AGENTS: readonly FileAgent[] = ['claude', 'codex', 'gemini', 'pi'];

/** One session of a store as the index holds it: its file (or database row) and, once read, its head. */
export interface IndexEntry {
  readonly agent: SessionAgent;
  /** The file; for OpenCode, the database. */
  readonly path: string;
  readonly size: number;
  readonly mtime: number;
  /** The id its name (or row) gives; the head's id wins once read. */
  readonly nameId: string | null;
  /** Undefined until read; cached while (path, size, mtime) stay. */
  head?: SessionHead;
}

export function keyOf(e: Pick<IndexEntry, 'agent' | 'path' | 'nameId'>): string {
  return e.agent === 'opencode' ? `${e.path}#${e.nameId ?? ''}` : e.path;
}

/** Events settle this long before a folder is listed again. */
const SETTLE_MS = 100;

/**
 * The sessions of every store, by key: found by listing the stores' folders and stat-ing each
 * file (never reading it), heads read on demand and cached by (path, size, mtime); the folders
 * are watched (inotify), so a new or changed session is in the index as soon as it is written.
 */
export class StoreIndex {
  readonly entries = new Map<string, IndexEntry>();
  readonly gemini = new GeminiProjects();
  #watchers = new Map<string, FSWatcher>();
  #pending = new Map<string, NodeJS.Timeout>();
  #reading = new Map<string, Promise<SessionHead>>();
  #closed = false;
  ready: Promise<void>;

  constructor(
    private readonly roots: StoreRoots,
    /** Told of every entry that is new or changed after the first scan. */
    private readonly changed: (e: IndexEntry) => void,
  ) {
    this.ready = this.#scanAll();
  }

  async #scanAll(): Promise<void> {
    await Promise.all([
      ...FILE_AGENTS.flatMap((agent) => this.roots[agent].map((root) => this.#scanRoot(agent, root, false))),
      ...this.roots.opencode.map((root) => this.#scanOpencode(root, false)),
    ]);
  }

  /** Lists a root again: new folders watched, files added, changed or dropped. */
  async #scanRoot(agent: FileAgent, root: string, tell: boolean): Promise<void> {
    const { dirs, files } = await walkStore(agent, root);
    if (this.#closed) return;
    // The root itself and its store folder: the store may not exist yet.
    for (const dir of [root, join(root, LAYOUT[agent].under), ...dirs]) this.#watch(dir, () => this.#soon(`root:${agent}:${root}`, () => this.#scanRoot(agent, root, true)), agent, root);
    const seen = new Set<string>();
    for (const f of files) {
      seen.add(f.path);
      this.#put({ ...f }, tell);
    }
    for (const [k, e] of this.entries) if (e.agent === agent && k.startsWith(`${join(root, LAYOUT[agent].under)}/`) && !seen.has(k)) this.entries.delete(k);
  }

  async #scanOpencode(root: string, tell: boolean): Promise<void> {
    const db = opencodeDb(root);
    const rows = opencodeSessions(db);
    if (this.#closed) return;
    this.#watch(root, (name) => name === null || name.startsWith('opencode.db') ? this.#soon(`opencode:${root}`, () => this.#scanOpencode(root, true)) : undefined);
    const seen = new Set<string>();
    for (const r of rows) {
      const e: IndexEntry = { agent: 'opencode', path: db, size: r.size, mtime: r.updated, nameId: r.id, head: { id: r.id, folder: r.folder, title: r.title, first: r.first } };
      seen.add(keyOf(e));
      this.#put(e, tell);
    }
    for (const [k, e] of this.entries) if (e.agent === 'opencode' && e.path === db && !seen.has(k)) this.entries.delete(k);
  }

  #put(e: IndexEntry, tell: boolean): void {
    const k = keyOf(e);
    const was = this.entries.get(k);
    if (was && was.size === e.size && was.mtime === e.mtime) return;
    // A changed file's head is read again when next asked for (a title may have been written).
    this.entries.set(k, e);
    if (tell) this.changed(e);
  }

  /** The head of an entry, read once per (size, mtime). */
  head(e: IndexEntry): Promise<SessionHead> {
    if (e.head) return Promise.resolve(e.head);
    const k = `${keyOf(e)}|${e.size}|${e.mtime}`;
    let p = this.#reading.get(k);
    if (!p) {
      p = readHead(e.agent as FileAgent, e.path, e.size, e.agent === 'gemini' ? this.gemini : undefined).then((h) => {
        e.head = h;
        this.#reading.delete(k);
        return h;
      });
      this.#reading.set(k, p);
    }
    return p;
  }

  #watch(dir: string, onEvent: (name: string | null) => void, agent?: FileAgent, root?: string): void {
    if (this.#watchers.has(dir) || this.#closed) return;
    try {
      const w = watch(dir, { persistent: false }, (_type, name) => {
        const n = name === null ? null : String(name);
        // A file in a session folder: only that file is looked at again.
        if (agent && root && n !== null && LAYOUT[agent].name.test(n)) return this.#soon(`file:${join(dir, n)}`, () => this.#file(agent, join(dir, n)));
        onEvent(n);
      });
      w.on('error', () => {
        w.close();
        this.#watchers.delete(dir);
      });
      this.#watchers.set(dir, w);
    } catch {
      // Not there yet: its parent's watch lists it when it comes.
    }
  }

  async #file(agent: FileAgent, path: string): Promise<void> {
    const f = await fileAt(agent, path);
    if (this.#closed) return;
    if (f) this.#put({ ...f }, true);
    else this.entries.delete(path);
  }

  #soon(key: string, run: () => Promise<void>): void {
    if (this.#closed) return;
    const t = this.#pending.get(key);
    if (t) clearTimeout(t);
    this.#pending.set(
      key,
      setTimeout(() => {
        this.#pending.delete(key);
        void run().catch(() => undefined);
      }, SETTLE_MS),
    );
  }

  close(): void {
    this.#closed = true;
    for (const w of this.#watchers.values()) w.close();
    this.#watchers.clear();
    for (const t of this.#pending.values()) clearTimeout(t);
    this.#pending.clear();
  }
}
