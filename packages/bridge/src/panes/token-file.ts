import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../config';
import { TOKEN_GRACE_MS, TokenStore, type TokenTable } from './tokens';

const TokenFile = z.object({
  version: z.literal(1),
  tokens: z.record(z.string(), z.object({ token: z.string().regex(/^[a-z0-9]{4}$/), goneAt: z.number().nullable() })),
  /** When the bridge last saw its panes (rewritten every rescan): a live pane's grace starts there. */
  savedAt: z.number().optional(),
  /** Names given from the phone (Rename), by pane key; kept while the pane lives, whatever the stop's length. */
  names: z.record(z.string(), z.string().max(200)).optional(),
});

/**
 * Tokens persisted in `<state>/walky/instances.json` (where the walky page puts them; a
 * `<state>/tokens.json` of an older build is read once) so addresses survive a bridge restart.
 * A pane that was live when the bridge stopped starts its 30 s grace at the file's `savedAt`
 * (rewritten at every 10 s rescan and at stop): if it is still there inside the grace, the
 * first listing revives it. Names given from the phone are kept in the same file, by the same
 * key, until their pane is seen gone.
 */
export async function openTokenStore(stateDir: string, now = Date.now) {
  await mkdir(join(stateDir, 'walky'), { recursive: true, mode: 0o700 });
  const path = join(stateDir, 'walky', 'instances.json');
  let table: TokenTable = {};
  let savedAt: number | undefined;
  let names: Record<string, string> = {};
  for (const file of [path, join(stateDir, 'tokens.json')]) {
    try {
      const parsed = TokenFile.safeParse(JSON.parse(await readFile(file, 'utf8')));
      if (parsed.success) {
        table = parsed.data.tokens;
        savedAt = parsed.data.savedAt;
        names = parsed.data.names ?? {};
        break;
      }
    } catch {
      // no file yet, or unreadable: start empty (tokens are minted again)
    }
  }
  // A pane live when the bridge stopped was last seen at the last save: a restart inside
  // 30 s keeps its token, a longer stop loses it.
  const t0 = now();
  for (const [key, e] of Object.entries(table)) {
    if (e.goneAt === null) e.goneAt = Math.min(savedAt ?? t0, t0);
    if (t0 - e.goneAt >= TOKEN_GRACE_MS) delete table[key];
  }
  const store = new TokenStore(table, Math.random, names);
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let last: TokenTable = structuredClone(table);
  const write = (force = false) => {
    timer = null;
    const changes = store.takeChanges();
    if (!changes && !force) return writing;
    if (changes) last = changes;
    const text = JSON.stringify({ version: 1, tokens: last, names: store.allNames(), savedAt: now() });
    writing = writing.then(() => writeFileAtomic(path, text, 0o600)).catch(() => undefined);
    return writing;
  };
  return {
    store,
    /** Persist soon (coalesced): called after every model change. */
    save(): void {
      if (!timer) timer = setTimeout(() => void write(), 100);
    },
    /** Record that the panes were just seen (each rescan), so a `kill -9` keeps tokens 30 s. */
    touch(): void {
      void write(true);
    },
    async flush(): Promise<void> {
      if (timer) clearTimeout(timer);
      await write(true);
    },
  };
}
