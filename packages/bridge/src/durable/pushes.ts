import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { Fit, floodHeading, LIMITS, questionHeading, type DurableConversation, type DurablePush, type DurableQuestion } from '@collie/protocol';
import { writeFileAtomic } from '../config';
import { KEEP_RETRY_MS } from '../config/until-written';
import { PushCaps, type CapDecision } from './push-caps';

const Pushed = z.object({ keys: z.array(z.string()).max(100_000) });
const KEEP = 10_000;

/**
 * Push decisions for durable agents' questions (delivery is the push service's). One push per
 * machine, durable agent and tool call (else question), remembered in
 * `<state>/durable/pushed.json`, so a question asked again after the agent or the bridge
 * restarts shows and does not push; then the caps (`push-caps.ts`).
 */
export class PushDecider {
  private readonly caps = new PushCaps();
  private keys: string[] = [];
  private readonly seen = new Set<string>();
  /** Keys remembered so far, and of them the ones on disk (a write takes every key up to then). */
  private version = 0;
  private written = 0;
  private writing = false;
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly waiters: { version: number; resolve: () => void }[] = [];
  private inflight: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string,
    private readonly machine: string,
    private readonly emit: (p: DurablePush) => void,
  ) {}

  static async open(stateDir: string, machine: string, emit: (p: DurablePush) => void): Promise<PushDecider> {
    return PushDecider.openFile(join(stateDir, 'durable', 'pushed.json'), machine, emit);
  }

  /** The same rule kept in another file: pane pushes (`push/`) keep theirs in `<state>/push/pushed.json`. */
  static async openFile(file: string, machine: string, emit: (p: DurablePush) => void = () => undefined): Promise<PushDecider> {
    const d = new PushDecider(file, machine, emit);
    try {
      const parsed = Pushed.safeParse(JSON.parse(await readFile(d.file, 'utf8')));
      if (parsed.success) d.keys = parsed.data.keys;
    } catch {
      // no file yet, or torn: it is rewritten whole on the next push
    }
    for (const k of d.keys) d.seen.add(k);
    return d;
  }

  /** A question was asked (new, or a new version): push it if it is the first time and within the caps. */
  asked(agent: string, c: DurableConversation, q: DurableQuestion, now: number): DurablePush | null {
    const cap = this.once(agent, q.toolCall ? `call:${q.toolCall.id}` : `question:${c.id}:${q.id}`, c.id, now);
    if (cap === null || cap.push === 'none') return null;
    const own = 'push' in q && q.push ? q.push : null;
    const push: DurablePush =
      cap.push === 'flood'
        ? { kind: 'flood', agent, machine: this.machine, conversationId: null, questionId: null, heading: floodHeading(this.machine), title: null, line: null, at: now }
        : {
            kind: 'question',
            agent,
            machine: this.machine,
            conversationId: c.id,
            questionId: q.id,
            heading: questionHeading(c.title ?? 'Untitled conversation'),
            title: own?.title ?? null,
            // Without the agent's own line, the question's own words (a permission's "Write x?").
            line: own?.line ?? new Fit().line(q.title, LIMITS.pushLine),
            at: now,
          };
    this.emit(push);
    return push;
  }

  /**
   * The once-only rule and the caps for any question: null when `question` (with this machine
   * and agent) pushed before, else the caps' decision for `pane` (a pane or a conversation).
   */
  once(agent: string, question: string, pane: string, now: number): CapDecision | null {
    const key = JSON.stringify([this.machine, agent, question]);
    if (this.seen.has(key)) return null;
    this.remember(key);
    return this.caps.decide(agent, pane, now);
  }

  /**
   * Resolves once every key remembered so far is on disk. A push goes out only then: a bridge
   * killed between a push and its record pushed the same ask again once it was back (the soak,
   * 2026-12-07). A write that fails (the state disk full) is made again every
   * {@link KEEP_RETRY_MS} until it is on disk, and what waits for it waits with it.
   */
  flush(): Promise<void> {
    if (this.written >= this.version || this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ version: this.version, resolve }));
  }

  /** The write under way, if any, then no more; whatever waits for one is let go (a full disk is not waited out). */
  async close(): Promise<void> {
    await this.inflight;
    this.stop();
  }

  /** No more writes; whatever waits for one is let go. */
  stop(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    for (const w of this.waiters.splice(0)) w.resolve();
  }

  private remember(key: string): void {
    this.seen.add(key);
    this.keys.push(key);
    if (this.keys.length > KEEP) for (const k of this.keys.splice(0, this.keys.length - KEEP)) this.seen.delete(k);
    this.version++;
    this.inflight = this.write();
  }

  private async write(): Promise<void> {
    if (this.writing || this.retry || this.stopped) return this.inflight;
    this.writing = true;
    try {
      while (this.written < this.version && !this.stopped) {
        const version = this.version;
        await writeFileAtomic(this.file, JSON.stringify({ keys: this.keys }), 0o600);
        this.written = version;
        // In the order they came: a push and its withdrawal go out in that order.
        for (const w of this.waiters.filter((x) => x.version <= version)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve();
        }
      }
    } catch {
      if (!this.stopped) {
        this.retry = setTimeout(() => {
          this.retry = null;
          this.inflight = this.write();
        }, KEEP_RETRY_MS);
        this.retry.unref();
      }
    } finally {
      this.writing = false;
    }
  }
}
