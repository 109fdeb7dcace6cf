import { type FSWatcher, watch } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';
import type { DurableItem, Mask } from '@collie/protocol';
import { ChatLog } from './chat-log';
import type { Entry, LineParser } from './entries';
import { type FileLine, MAX_LINE, lineStart, linesBefore, splitLines } from './file-lines';

/** Items read before the first screen is shown: enough to fill a phone and some. */
export const FIRST_ITEMS = 60;
/**
 * Bytes read back at a time for the first screen: every line read is parsed, fitted and masked
 * (the redactor is most of the cost), so the first screen reads little more than it shows.
 */
const FIRST_CHUNK = 32 * 1024;
/** Bytes read forward in one go; more waits for the next turn of the event loop. */
const FORWARD_CHUNK = 4 * 1024 * 1024;

export interface FollowEvents {
  /** New or changed items, as lines landed. */
  items(changed: DurableItem[]): void;
  /** The file was truncated or replaced: everything is read again; show the first page anew. */
  reset(): void;
  /** Complete lines read past where the file was opened, in order (a pane's usage adds them up). */
  lines?(texts: readonly string[]): void;
  /** A database source was read again after it changed (OpenCode's): its usage may have. */
  read?(): void;
}

function entriesOf(parse: LineParser, lines: ReadonlyArray<FileLine | { offset: number; text: null }>): Entry[] {
  const out: Entry[] = [];
  for (const l of lines) {
    if (l.text === null) out.push({ kind: 'item', item: { kind: 'notice', id: String(l.offset), at: 0, text: 'A line too long to show was left out.' } });
    else out.push(...parse(l.text, l.offset));
  }
  return out;
}

/** What a pane's Chat follows: a transcript file, or a session in an agent's database. */
export interface ChatFollower {
  /** The file it reads (for a database, the database file). */
  readonly path: string;
  /** The session it follows, when the source holds several (OpenCode's database); null for a file. */
  readonly session: string | null;
  readonly log: ChatLog;
  /** History reached the start of the conversation. */
  readonly atStart: boolean;
  /** Reads older items until `limit` precede `before` (a place) or the start. */
  older(before: number, limit: number): Promise<void>;
  close(): void;
}

/**
 * One transcript file, followed live: the last lines read at open (backwards from the end, so a
 * 100 MB file opens as fast as a small one), appended lines read as the watcher reports them
 * (a partial last line waits until its newline lands), a truncated or replaced file read anew,
 * and older lines read backwards on demand for History.
 */
export class TranscriptFollower implements ChatFollower {
  log: ChatLog;
  readonly session = null;
  #fh: FileHandle | null = null;
  #ino = 0;
  /** Start of the first line read; 0 when History reached the file's start. */
  #from = 0;
  /** Just after the last complete line read. */
  #end = 0;
  /** Skipping a line longer than MAX_LINE until its newline. */
  #skipping = false;
  /** Where the last (re)load started following: lines before it were in the file then. */
  #loadedEnd = 0;
  #watcher: FSWatcher | null = null;
  #reading: Promise<void> | null = null;
  #again = false;
  #closed = false;

  private constructor(
    readonly path: string,
    readonly parse: LineParser,
    readonly mask: Mask,
    readonly on: FollowEvents,
  ) {
    this.log = new ChatLog(mask);
  }

  static async open(path: string, parse: LineParser, mask: Mask, on: FollowEvents): Promise<TranscriptFollower> {
    const f = new TranscriptFollower(path, parse, mask, on);
    await f.#load();
    f.#watchFile();
    // Lines that landed after the load read the file and before the watch began: read now.
    f.poke();
    return f;
  }

  /**
   * inotify watches the file itself: appends arrive as `change`, a rename or delete as `rename`
   * (then the path is opened anew, and that file needs a watch of its own).
   */
  #watchFile(): void {
    this.#watcher?.close();
    this.#watcher = null;
    try {
      this.#watcher = watch(this.path, { persistent: false }, () => this.poke());
      this.#watcher.on('error', () => this.poke());
    } catch {
      // Gone again already: the pane's Chat finds its transcript anew.
    }
  }

  get atStart(): boolean {
    return this.#from === 0;
  }

  /** The end of the last complete line when the file was (re)opened: later lines reach `on.lines`. */
  get loadedEnd(): number {
    return this.#loadedEnd;
  }

  /** Reads what changed; calls made while a read runs fold into one more read after it. */
  poke(): void {
    if (this.#closed) return;
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = this.#read()
      .catch(() => undefined)
      .finally(() => {
        this.#reading = null;
        if (this.#again) {
          this.#again = false;
          this.poke();
        }
      });
  }

  /** Reads older lines until `limit` items precede `before` (an offset) or the file's start. */
  async older(before: number, limit: number): Promise<void> {
    while (this.#from > 0 && this.log.page(before, limit).length < limit) await this.#back();
  }

  close(): void {
    this.#closed = true;
    this.#watcher?.close();
    void this.#fh?.close().catch(() => undefined);
    this.#fh = null;
  }

  async #load(): Promise<void> {
    await this.#fh?.close().catch(() => undefined);
    const fh = await open(this.path, 'r');
    const s = await fh.stat();
    this.#fh = fh;
    this.#ino = s.ino;
    this.log = new ChatLog(this.mask);
    // The end of the last complete line: a partial last line is read once its newline lands.
    const end = await lineStart(fh, s.size);
    this.#from = end;
    this.#end = end;
    this.#loadedEnd = end;
    this.#skipping = false;
    while (this.#from > 0 && this.log.items.length < FIRST_ITEMS) await this.#back(FIRST_CHUNK);
  }

  async #back(chunk?: number): Promise<void> {
    if (!this.#fh) return;
    const { lines, start } = await linesBefore(this.#fh, this.#from, chunk);
    this.#from = start;
    this.log.prepend(entriesOf(this.parse, lines));
  }

  async #read(): Promise<void> {
    const now = await stat(this.path).catch(() => null);
    if (!now) return;
    if (now.ino !== this.#ino || now.size < this.#end) {
      const replaced = now.ino !== this.#ino;
      await this.#load();
      if (replaced) this.#watchFile();
      // What landed since that load read the file is read next (the same gap as at open).
      this.#again = true;
      return this.on.reset();
    }
    const fh = this.#fh;
    if (!fh) return;
    const changed: DurableItem[] = [];
    let want = FORWARD_CHUNK;
    while (this.#end < now.size && !this.#closed) {
      const length = Math.min(now.size - this.#end, want);
      const buf = Buffer.allocUnsafe(length);
      const { bytesRead } = await fh.read(buf, 0, length, this.#end);
      if (this.#skipping) {
        const nl = buf.subarray(0, bytesRead).indexOf(10);
        if (nl < 0) {
          this.#end += bytesRead;
          continue;
        }
        changed.push(...this.log.append(entriesOf(this.parse, [{ offset: this.#end, text: null }])));
        this.#skipping = false;
        this.#end += nl + 1;
        continue;
      }
      const { lines, used } = splitLines(buf.subarray(0, bytesRead), this.#end);
      if (used === 0) {
        if (bytesRead > MAX_LINE) {
          // Too long to parse: what landed is dropped, and the rest of the line when it lands.
          this.#skipping = true;
          this.#end += bytesRead;
          want = FORWARD_CHUNK;
          continue;
        }
        // The rest is one line still landing: it is read once its newline is there.
        if (length === now.size - this.#end) break;
        want = MAX_LINE + 1;
        continue;
      }
      want = FORWARD_CHUNK;
      this.#end += used;
      this.on.lines?.(lines.map((l) => l.text));
      changed.push(...this.log.append(entriesOf(this.parse, lines)));
    }
    if (changed.length > 0) this.on.items(dedupe(changed));
  }
}

/** The last version of each item, in order of first change. */
function dedupe(items: readonly DurableItem[]): DurableItem[] {
  const byId = new Map<string, DurableItem>();
  for (const it of items) byId.set(it.id, it);
  return [...byId.values()];
}
