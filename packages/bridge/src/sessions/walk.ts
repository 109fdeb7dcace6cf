import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { SessionAgent } from '@collie/protocol';

/** A session file found in a store, before its head is read. */
export interface StoreFile {
  readonly agent: SessionAgent;
  readonly path: string;
  readonly size: number;
  readonly mtime: number;
  /** The session id its name gives (Gemini CLI's: the first 8 characters only), else null. */
  readonly nameId: string | null;
}

const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/;

/** Where each agent's files sit under its root: the folders to list, level by level, and which names are sessions. */
export const LAYOUT: Record<Exclude<SessionAgent, 'opencode'>, { readonly under: string; readonly depth: number; readonly name: RegExp; readonly id: (name: string) => string | null }> = {
  // <config>/projects/<slug of cwd>/<id>.jsonl (a sub-agent's sit one level deeper, not listed)
  claude: { under: 'projects', depth: 1, name: /^[A-Za-z0-9-]{1,100}\.jsonl$/, id: (n) => basename(n, '.jsonl') },
  // <home>/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl
  codex: { under: 'sessions', depth: 3, name: /^rollout-.*\.jsonl$/, id: (n) => UUID.exec(n)?.[1] ?? null },
  // <dir>/tmp/<project>/chats/session-<time>-<id8>.jsonl
  gemini: { under: 'tmp', depth: 1, name: /^session-.*\.jsonl$/, id: (n) => /-([0-9a-f]{8})\.jsonl$/.exec(n)?.[1] ?? null },
  // <agent dir>/sessions/--<cwd>--/<time>_<id>.jsonl
  pi: { under: 'sessions', depth: 1, name: /\.jsonl$/, id: (n) => basename(n, '.jsonl').split('_').at(-1) ?? null },
};

/** Gemini CLI's chats sit in `chats/` below the project folder. */
function subOf(agent: SessionAgent, level: number): string | null {
  return agent === 'gemini' && level === 1 ? 'chats' : null;
}

/** The session folders of one agent's root (every folder a new session may land in, for watching) and the files in them. */
export async function walkStore(agent: Exclude<SessionAgent, 'opencode'>, root: string): Promise<{ dirs: string[]; files: StoreFile[] }> {
  const layout = LAYOUT[agent];
  const top = join(root, layout.under);
  const dirs: string[] = [];
  let level: string[] = [top];
  for (let depth = 0; depth < layout.depth; depth++) {
    dirs.push(...level);
    const next: string[] = [];
    await Promise.all(
      level.map(async (dir) => {
        const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
        for (const e of entries) if (e.isDirectory()) next.push(subOf(agent, depth + 1) ? join(dir, e.name, subOf(agent, depth + 1)!) : join(dir, e.name));
      }),
    );
    level = next;
  }
  dirs.push(...level);
  const files = (await Promise.all(level.map((dir) => filesIn(agent, dir)))).flat();
  return { dirs, files };
}

/** The session files directly in `dir`. */
export async function filesIn(agent: Exclude<SessionAgent, 'opencode'>, dir: string): Promise<StoreFile[]> {
  const layout = LAYOUT[agent];
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => layout.name.test(n));
  const out = await Promise.all(names.map((n) => fileAt(agent, join(dir, n))));
  return out.filter((f): f is StoreFile => f !== null);
}

export async function fileAt(agent: Exclude<SessionAgent, 'opencode'>, path: string): Promise<StoreFile | null> {
  const layout = LAYOUT[agent];
  const name = basename(path);
  if (!layout.name.test(name)) return null;
  const st = await stat(path).catch(() => null);
  if (!st?.isFile()) return null;
  return { agent, path, size: st.size, mtime: st.mtimeMs, nameId: layout.id(name) };
}
