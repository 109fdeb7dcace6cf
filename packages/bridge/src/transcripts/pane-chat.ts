import { statSync, watch, type FSWatcher } from 'node:fs';
import { dirname } from 'node:path';
import type { DurableItem, Mask, Pane, PaneChatMessage, PaneChatPage, PaneChatSource, PaneUsage } from '@collie/protocol';
import { UsageFeed } from '../usage/feed';
import { offsetOf } from './chat-log';
import { type Finding, findTranscript, readerOf } from './finders';
import { type ChatFollower, type FollowEvents, TranscriptFollower } from './follow';
import { OpencodeFollower } from './opencode-db';

/** Items in the first page a subscriber is sent. */
export const FIRST_PAGE = 50;
/** Pane changes come in bursts (a turn starts, its screen redraws): find the transcript again once they settle. */
const RELOCATE_MS = 150;
/**
 * An agent's transcript not found yet is looked for again on a slowing timer too: an agent may
 * open its file with no change of the pane to tell (Codex opens its rollout at the first turn,
 * whose working state a loaded machine can miss between two reads of the pane). Not when the
 * finder says its watched folders show whatever would find it and all of them are watched
 * (Claude Code's registry and projects: `Finding.watchSuffices`).
 */
const LOOK_AGAIN_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000, 60_000] as const;
/** A look again takes a pass over the processes begun up to half its wait before it, at most this long (shared by every pane waiting). */
const SHARED_PASS_MS = 5_000;

type Send = (m: PaneChatMessage) => void;

/**
 * The chat of one pane: which transcript its agent writes (found again whenever the pane
 * changes or a watched folder does: `/clear` and resumes start new files), the follower of
 * that file, and who is subscribed.
 */
export class PaneChat {
  readonly subscribers = new Set<Send>();
  #source: PaneChatSource | null = null;
  #reason: string | null = 'Looking for this pane’s transcript…';
  #follower: ChatFollower | null = null;
  #watchers: FSWatcher[] = [];
  #watched = '';
  /** Every folder of the last finding's `watch` is watched. */
  #watchedAll = false;
  #timer: NodeJS.Timeout | null = null;
  #locating: Promise<void> | null = null;
  #again = false;
  #closed = false;
  #lookAgain: NodeJS.Timeout | null = null;
  #looks = 0;
  /** The usage the transcript records, added up as its lines are read (docs/api.md: Pane.usage). */
  readonly #usage: UsageFeed | null;

  constructor(
    readonly id: string,
    private pane: Pane,
    private readonly mask: Mask,
    private readonly procRoot: string,
    onUsage?: (usage: PaneUsage | null) => void,
  ) {
    this.#usage = onUsage ? new UsageFeed(onUsage) : null;
  }

  /** Finds the transcript the first time. */
  async start(): Promise<void> {
    await this.#locate();
  }

  /** The pane changed (its state, its command): the transcript may have. */
  update(pane: Pane): void {
    const was = this.pane;
    this.pane = pane;
    // A new session shows as a new turn (a state change) or another program; a redraw is not one.
    if (was.pid !== pane.pid || was.command !== pane.command || was.harness !== pane.harness || was.state !== pane.state) this.soon();
  }

  /** The pane is gone: its chat says so, and follows nothing. */
  gone(): void {
    this.#use(null, 'This pane is gone.');
  }

  soon(): void {
    if (this.#closed) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#locate();
    }, RELOCATE_MS);
  }

  /** Up to `limit` items before `before` (a cursor), reading History backwards as needed. */
  async page(before: number | null, limit: number): Promise<PaneChatPage> {
    const f = this.#follower;
    if (!f) return { id: this.id, source: this.#source, reason: this.#reason, items: [], before: null };
    if (before !== null) await f.older(before, limit);
    const items = f.log.page(before, limit);
    const first = items[0];
    const more = first !== undefined && (f.log.items[0] !== first || !f.atStart);
    return { id: this.id, source: this.#source, reason: this.#reason, items, before: more ? String(offsetOf(first.id)) : null };
  }

  async subscribe(send: Send): Promise<void> {
    this.subscribers.add(send);
    send({ type: 'pane.chat', reset: true, ...(await this.page(null, FIRST_PAGE)) });
  }

  close(): void {
    this.#closed = true;
    this.#usage?.stop();
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#lookAgain) clearTimeout(this.#lookAgain);
    this.#follower?.close();
    this.#follower = null;
    this.#watch([]);
  }

  /** `passSince`: a look again on the timer may take a pass over the processes begun since then. */
  #locate(passSince?: number): Promise<void> {
    if (this.#locating) {
      this.#again = true;
      return this.#locating;
    }
    this.#locating = (async () => {
      let finding: Finding;
      try {
        finding = await findTranscript(this.pane, this.procRoot, passSince);
      } catch {
        finding = { found: false, reason: 'Collie could not read this pane’s processes.', watch: [] };
      }
      if (this.#closed) return;
      // Watches set up after the look may have missed the file it looked for landing in
      // between: look once more under the new watches.
      if (this.#watch(finding.watch) && !finding.found) this.#again = true;
      if (!finding.found) {
        if (!(finding.watchSuffices && this.#watchedAll)) this.#looksLater();
        return this.#use(null, finding.reason);
      }
      this.#looks = 0;
      const reader = readerOf(this.pane.harness);
      if (!reader) return this.#use(null, 'Collie does not read this agent’s transcripts yet.');
      if (this.#follower?.path === finding.path && (reader.kind === 'lines' || this.#follower.session === finding.session)) return;
      const usage = this.#usage?.start(this.pane.harness) ?? null;
      const on: FollowEvents = {
        items: (items) => this.#broadcast(items),
        reset: () => {
          usage?.reset();
          void this.#resend();
        },
        ...(usage ? { lines: (texts: readonly string[]) => usage.lines(texts), read: () => usage.read() } : {}),
      };
      try {
        const follower: ChatFollower =
          reader.kind === 'lines'
            ? await TranscriptFollower.open(finding.path, reader.parse, this.mask, on)
            : await OpencodeFollower.open(finding.path, finding.session ?? '', this.mask, on);
        if (this.#closed) return follower.close();
        this.#use(follower, null, { agent: this.pane.harness, path: finding.path, session: finding.session });
        usage?.follow(follower);
      } catch {
        this.#use(null, 'The transcript could not be opened.');
      }
    })().finally(() => {
      this.#locating = null;
      if (this.#again) {
        this.#again = false;
        this.soon();
      }
    });
    return this.#locating;
  }

  /** Not found: an agent whose transcripts are read is looked at again later, less often each time. */
  #looksLater(): void {
    if (this.#closed || this.#lookAgain || !readerOf(this.pane.harness)) return;
    const ms = LOOK_AGAIN_MS[Math.min(this.#looks, LOOK_AGAIN_MS.length - 1)]!;
    this.#looks++;
    this.#lookAgain = setTimeout(() => {
      this.#lookAgain = null;
      void this.#locate(Date.now() - Math.min(SHARED_PASS_MS, ms / 2));
    }, ms);
    this.#lookAgain.unref();
  }

  #use(follower: ChatFollower | null, reason: string | null, source: PaneChatSource | null = null): void {
    if (follower === null && this.#follower === null && reason === this.#reason) return;
    if (follower === null) this.#usage?.clear();
    this.#follower?.close();
    this.#follower = follower;
    this.#source = source;
    this.#reason = reason;
    void this.#resend();
  }

  async #resend(): Promise<void> {
    if (this.subscribers.size === 0) return;
    const page = await this.page(null, FIRST_PAGE);
    for (const send of this.subscribers) send({ type: 'pane.chat', reset: true, ...page });
  }

  #broadcast(items: DurableItem[]): void {
    const message: PaneChatMessage = { type: 'pane.chat', reset: false, id: this.id, source: this.#source, reason: null, items, before: null };
    for (const send of this.subscribers) send(message);
  }

  /**
   * Watches the folders whose changes may name another transcript (a registry rewritten, a new
   * file). A folder not made yet is watched through its parent, whose change (the folder made)
   * looks again and so watches the folder itself.
   */
  #watch(dirs: readonly string[]): boolean {
    const targets = dirs.map((dir) => (isDir(dir) ? dir : dirname(dir)));
    const key = dirs.map((dir, i) => `${dir}>${targets[i]}`).join('\n');
    if (key === this.#watched) return false;
    for (const w of this.#watchers) w.close();
    this.#watched = key;
    this.#watchers = [];
    for (const dir of targets) {
      try {
        // The followed file's own appends are the follower's business, not a new transcript.
        const w = watch(dir, { persistent: false }, (_type, name) => {
          if (name === null || !this.#follower || !this.#follower.path.endsWith(`/${name}`)) this.soon();
        });
        // A watched folder gone (removed, unmounted): watch again, or look on the timer.
        w.on('error', () => {
          this.#watched = '';
          this.#watchedAll = false;
          this.soon();
        });
        this.#watchers.push(w);
      } catch {
        // Neither the folder nor its parent there: the pane's next change, or the timer, looks again.
      }
    }
    this.#watchedAll = dirs.length > 0 && this.#watchers.length === dirs.length;
    return true;
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
