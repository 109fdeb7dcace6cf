import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../config';
import { TOKEN_GRACE_MS, TokenStore, type TokenTable } from './tokens';

const TokenFile = z.object({
  version: z.literal(1),
  tokens: z.record(z.string(), z.object({ token: z.string().regex(/^[a-z0-9]{4}$/), goneAt: z.number().nullable() })),
});

/**
 * Tokens persisted in `<state>/walky/instances.json` (where the walky page puts them; a
 * `<state>/tokens.json` of an older build is read once) so addresses survive a bridge restart.
 * A pane that was live when the bridge stopped starts its 30 s grace at load time: if it
 * is still there, the first listing revives it.
 */
export async function openTokenStore(stateDir: string, now = Date.now) {
  await mkdir(join(stateDir, 'walky'), { recursive: true, mode: 0o700 });
  const path = join(stateDir, 'walky', 'instances.json');
  let table: TokenTable = {};
  for (const file of [path, join(stateDir, 'tokens.json')]) {
    try {
      const parsed = TokenFile.safeParse(JSON.parse(await readFile(file, 'utf8')));
      if (parsed.success) {
        table = parsed.data.tokens;
        break;
      }
    } catch {
      // no file yet, or unreadable: start empty (tokens are minted again)
    }
  }
  const t0 = now();
  for (const [key, e] of Object.entries(table)) {
    if (e.goneAt !== null && t0 - e.goneAt >= TOKEN_GRACE_MS) delete table[key];
    else if (e.goneAt === null) e.goneAt = t0;
  }
  const store = new TokenStore(table);
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  const write = () => {
    timer = null;
    const changes = store.takeChanges();
    if (!changes) return writing;
    writing = writing.then(() => writeFileAtomic(path, JSON.stringify({ version: 1, tokens: changes }), 0o600)).catch(() => undefined);
    return writing;
  };
  return {
    store,
    /** Persist soon (coalesced): called after every model change. */
    save(): void {
      if (!timer) timer = setTimeout(write, 100);
    },
    async flush(): Promise<void> {
      if (timer) clearTimeout(timer);
      await write();
    },
  };
}
