import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { DurableItem, Mask } from '@collie/protocol';
import type Database from 'libsql';
import { ChatLog } from './chat-log';
import type { Entry } from './entries';
import type { ChatFollower, FollowEvents } from './follow';
import { FIRST_ITEMS } from './follow';
import { type PartRow, parseOpencodePart } from './opencode-rows';

type Sqlite = typeof Database;
type Db = InstanceType<Sqlite>;

let sqlite: Sqlite | null = null;
/** The SQLite binding (libsql, as Nerve uses: docs/adr/0005), loaded when an OpenCode chat is first opened, so a bridge without it still runs. */
function binding(): Sqlite {
  return (sqlite ??= createRequire(import.meta.url)('libsql') as Sqlite);
}

/** Rows read back at a time, for the first screen and for History. */
const PAGE_ROWS = 100;
/**
 * OpenCode rewrites the parts of the turn that runs (a text as it streams, a tool as it
 * settles): a read looks for rewritten rows among the session's newest this many parts, and
 * for new ones past them. An older part rewritten (a compaction marking old tool output) shows
 * as it is now when the chat is opened again.
 */
const RECENT = 500;
/** A failed read (the database busy a moment, a checkpoint running) is tried again after this. */
const RETRY_MS = 100;
/**
 * SQLite writes a commit's pages to the -wal file (the watcher's event) before it marks the
 * commit in the -shm index (no event): a read on the event may come too early to see it, and a
 * busy machine may hold the writer between the two for a while. So the last event of a burst
 * is followed by a few more reads, this long after it.
 */
const TRAILING_MS = [10, 50, 250, 1000] as const;

const COLUMNS = 'p.rowid AS rowid, p.id AS id, p.message_id AS message, p.time_created AS created, p.time_updated AS updated, p.data AS data, m.data AS messageData';
const FROM = 'FROM part p JOIN message m ON m.id = p.message_id WHERE p.session_id = ?';

type Row = PartRow & { readonly updated: number };

/**
 * Opens an OpenCode database read-only (SQLite's `mode=ro`: nothing is written, not even on
 * close, and a missing file is an error, never created). Queries are short and indexed;
 * no transaction is held open between them, so OpenCode's writes and checkpoints never wait.
 */
export function openReadOnly(path: string): Db {
  const Database = binding();
  return new Database(`${pathToFileURL(path).href}?mode=ro`);
}

function rowOf(r: unknown): Row | null {
  if (r === null || typeof r !== 'object') return null;
  const o = r as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : NaN);
  const rowid = num(o.rowid);
  if (!Number.isSafeInteger(rowid) || typeof o.id !== 'string') return null;
  return {
    rowid,
    id: o.id,
    message: typeof o.message === 'string' ? o.message : '',
    created: num(o.created),
    updated: num(o.updated),
    data: typeof o.data === 'string' ? o.data : '',
    messageData: typeof o.messageData === 'string' ? o.messageData : '',
  };
}

/**
 * One OpenCode session, followed live from its database: the newest parts read at open
 * (newest rowid first, until a phone's screen is filled), parts written or rewritten since
 * read when the database or its write-ahead log changes (an inotify watch on their folder,
 * never a poll; each read asks only for rows updated since the last one), older parts read
 * backwards by rowid for History.
 */
export class OpencodeFollower implements ChatFollower {
  readonly log: ChatLog;
  #db: Db | null;
  /** The smallest rowid read; 0 once History reached the session's first part. */
  #from = 0;
  /** `time_updated` of the newest version read of each part. */
  readonly #seen = new Map<string, number>();
  /** The newest `time_updated` read: the next read asks for rows updated since. */
  #since = 0;
  #watcher: FSWatcher | null = null;
  #reading = false;
  #again = false;
  #retry: NodeJS.Timeout | null = null;
  #trailing: NodeJS.Timeout[] = [];
  #closed = false;

  private constructor(
    readonly path: string,
    readonly session: string,
    db: Db,
    mask: Mask,
    readonly on: FollowEvents,
  ) {
    this.#db = db;
    this.log = new ChatLog(mask);
  }

  /** Opens `session` of the database at `path`; throws when the database cannot be opened. */
  static open(path: string, session: string, mask: Mask, on: FollowEvents): Promise<OpencodeFollower> {
    let f: OpencodeFollower;
    try {
      f = new OpencodeFollower(path, session, openReadOnly(path), mask, on);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    try {
      f.#load();
      const names = new Set([basename(path), `${basename(path)}-wal`]);
      // A commit lands in the -wal file (WAL mode) or the database itself (after a checkpoint, or a rollback journal).
      f.#watcher = watch(dirname(path), { persistent: false }, (_type, name) => {
        if (name === null || names.has(name)) f.#changed();
      });
      f.#watcher.on('error', () => f.#changed());
      // A commit between the load and the watch: read once now.
      f.poke();
    } catch (err) {
      f.close();
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    return Promise.resolve(f);
  }

  get atStart(): boolean {
    return this.#from === 0;
  }

  /** The database changed: read now, and a few times more once the burst is over. */
  #changed(): void {
    this.poke();
    for (const t of this.#trailing) clearTimeout(t);
    this.#trailing = TRAILING_MS.map((ms) => setTimeout(() => this.poke(), ms));
  }

  /** Reads what changed since the last read; calls while a read is queued fold into it. */
  poke(): void {
    if (this.#closed) return;
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = true;
    // Off the watcher's callback: a burst of events (one commit touches the WAL several times) makes one read.
    setImmediate(() => {
      this.#reading = false;
      if (this.#closed) return;
      try {
        this.#read();
      } catch {
        // Busy or mid-checkpoint: try again shortly.
        this.#retry ??= setTimeout(() => {
          this.#retry = null;
          this.poke();
        }, RETRY_MS);
      }
      if (this.#again) {
        this.#again = false;
        this.poke();
      }
    });
  }

  async older(before: number, limit: number): Promise<void> {
    while (this.#from > 0 && this.log.page(before, limit).length < limit) this.#back();
    return Promise.resolve();
  }

  close(): void {
    this.#closed = true;
    this.#watcher?.close();
    this.#watcher = null;
    if (this.#retry) clearTimeout(this.#retry);
    for (const t of this.#trailing) clearTimeout(t);
    try {
      this.#db?.close();
    } catch {
      // Already closed.
    }
    this.#db = null;
  }

  #rows(sql: string, ...params: unknown[]): Row[] {
    if (!this.#db) return [];
    const out: Row[] = [];
    for (const r of this.#db.prepare(sql).all(...params) as unknown[]) {
      const row = rowOf(r);
      if (row) out.push(row);
    }
    return out;
  }

  #load(): void {
    this.#from = Number.MAX_SAFE_INTEGER;
    while (this.#from > 0 && this.log.items.length < FIRST_ITEMS) this.#back();
  }

  /** One page of rows before the smallest read, newest first, added to the front. */
  #back(): void {
    const rows = this.#rows(`SELECT ${COLUMNS} ${FROM} AND p.rowid < ? ORDER BY p.rowid DESC LIMIT ?`, this.session, this.#from, PAGE_ROWS);
    const entries: Entry[] = [];
    for (const row of rows.reverse()) {
      if (!this.#seen.has(row.id)) this.#seen.set(row.id, row.updated);
      // Rows updated at the very moment of a read come again with the next one (`>=`), and are skipped if unchanged.
      if (Number.isFinite(row.updated)) this.#since = Math.max(this.#since, row.updated);
      entries.push(...parseOpencodePart(row));
    }
    this.#from = rows.length < PAGE_ROWS ? 0 : (rows[0]?.rowid ?? 0);
    this.log.prepend(entries);
  }

  /** The rowid from which a read looks for rewritten rows: the session's last `RECENT` parts (0: all of a short session). */
  #floor(): number {
    const r = this.#db?.prepare('SELECT rowid FROM part WHERE session_id = ? ORDER BY rowid DESC LIMIT 1 OFFSET ?').get(this.session, RECENT) as { rowid?: unknown } | undefined;
    return typeof r?.rowid === 'number' ? r.rowid : 0;
  }

  #read(): void {
    // Indexed (session, rowid): a read costs what changed, not the session's length.
    const rows = this.#rows(`SELECT ${COLUMNS} ${FROM} AND p.rowid >= ? AND p.time_updated >= ? ORDER BY p.rowid`, this.session, this.#floor(), this.#since);
    const changed: DurableItem[] = [];
    for (const row of rows) {
      if (Number.isFinite(row.updated)) this.#since = Math.max(this.#since, row.updated);
      // Not read yet (older than History went) or this very version read already.
      if ((this.#from > 0 && row.rowid < this.#from) || this.#seen.get(row.id) === row.updated) continue;
      this.#seen.set(row.id, row.updated);
      changed.push(...this.log.append(parseOpencodePart(row)));
    }
    if (changed.length > 0) this.on.items(changed);
    this.on.read?.();
  }

  /** The `data` of the session's assistant messages, oldest first (their tokens and cost). */
  assistantMessages(): string[] {
    if (!this.#db) return [];
    const rows = this.#db.prepare("SELECT data FROM message WHERE session_id = ? AND json_extract(data, '$.role') = 'assistant' ORDER BY time_created, rowid").all(this.session) as unknown[];
    return rows.flatMap((r) => {
      const data = (r as { data?: unknown } | null)?.data;
      return typeof data === 'string' ? [data] : [];
    });
  }
}
