import { mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../config/write-file-atomic';
import type { Redactor } from '../redact';

/** A sample is cut to this many characters; at most this many samples are kept. */
export const SAMPLE_CHARS = 64 * 1024;
export const MAX_SAMPLES = 32;

/** `<state>/unread-screens/seen.json`: every agent and version the bridge saw, and how many of its screens it could not read. */
export const SeenAgents = z.record(
  z.string(),
  z.record(z.string(), z.object({ firstSeen: z.number(), lastSeen: z.number(), unread: z.number().int().nonnegative(), sample: z.string().nullable() })),
);
export type SeenAgents = z.infer<typeof SeenAgents>;

/** The folder under the state dir. */
export const unreadDir = (stateDir: string) => join(stateDir, 'unread-screens');

/**
 * What the bridge saw of each agent, kept so `collie doctor` can tell it: the versions, and one
 * masked sample screen per agent and version that its reader could not read, for a report.
 * Files 0600 in a 0700 folder, written atomically; bounded in count and size.
 */
export class UnreadScreens {
  private seen: SeenAgents = {};
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly dir: string,
    private readonly redact: Redactor,
    private readonly now: () => number,
  ) {}

  static async open(stateDir: string, redact: Redactor, now: () => number = Date.now): Promise<UnreadScreens> {
    const dir = unreadDir(stateDir);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const store = new UnreadScreens(dir, redact, now);
    store.seen = await readSeen(stateDir);
    return store;
  }

  /** An agent at `version` was read; `screen` is set when its reader could not read it. */
  note(agent: string, version: string, screen: string | null): Promise<void> {
    const entry = (this.seen[agent] ??= {})[version] ?? { firstSeen: this.now(), lastSeen: 0, unread: 0, sample: null };
    const fresh = entry.lastSeen === 0;
    entry.lastSeen = this.now();
    (this.seen[agent] ??= {})[version] = entry;
    if (screen === null && !fresh) return this.writing;
    const tasks: Array<() => Promise<void>> = [];
    if (screen !== null) {
      entry.unread++;
      if (entry.sample === null) {
        const name = `${agent}-${version}`.replace(/[^A-Za-z0-9._-]/g, '_') + '.txt';
        entry.sample = name;
        tasks.push(async () => {
          if ((await readdir(this.dir)).filter((f) => f.endsWith('.txt')).length >= MAX_SAMPLES) return;
          await writeFileAtomic(join(this.dir, name), this.redact(screen).slice(0, SAMPLE_CHARS));
        });
      }
    }
    const snapshot = JSON.stringify(this.seen, null, 1);
    tasks.push(() => writeFileAtomic(join(this.dir, 'seen.json'), snapshot));
    this.writing = this.writing.then(async () => {
      for (const t of tasks) await t();
    }).catch(() => undefined);
    return this.writing;
  }
}

/** What `seen.json` holds, or nothing when it is missing or not ours. */
export async function readSeen(stateDir: string): Promise<SeenAgents> {
  try {
    const parsed = SeenAgents.safeParse(JSON.parse(await readFile(join(unreadDir(stateDir), 'seen.json'), 'utf8')));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}
