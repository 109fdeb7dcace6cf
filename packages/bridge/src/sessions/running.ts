import type { Pane } from '@collie/protocol';
import { findTranscript, readerOf } from '../transcripts/finders';

/** A session id from a transcript file's name (Claude Code's `<id>.jsonl`, Codex's and pi's `…<uuid>.jsonl`). */
function sessionIdOf(path: string): string | null {
  return /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/.exec(path)?.[1] ?? null;
}

/** A pane's finding is looked up again after this long, or when its process or state changes. */
const FRESH_MS = 3000;

/**
 * Which session each agent pane runs now, by the transcript finders (the same that find a
 * pane's Chat): keys are a session file's path, or `opencode#<id>` for OpenCode's database.
 */
/** The session a pane runs: its agent, the agent's id for it, and where it is kept. */
export interface PaneSession {
  readonly pane: string;
  readonly agent: string;
  readonly id: string;
  readonly path: string;
}

export class RunningSessions {
  #cache = new Map<string, { at: number; sig: string; keys: string[]; session: PaneSession | null }>();

  constructor(
    private readonly panes: () => Pane[],
    private readonly procRoot: string,
  ) {}

  async byKey(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const live = this.panes().filter((p) => readerOf(p.harness) !== null);
    // Every pane looked up now shares one pass over the processes, begun after this call.
    const since = Date.now();
    await Promise.all(
      live.map(async (p) => {
        const sig = `${p.pid}|${p.command}|${p.state}`;
        let hit = this.#cache.get(p.id);
        if (!hit || hit.sig !== sig || Date.now() - hit.at > FRESH_MS) {
          const f = await findTranscript(p, this.procRoot, since).catch(() => null);
          const keys = f?.found ? (readerOf(p.harness)?.kind === 'opencode' ? [`${f.path}#${f.session ?? ''}`, `opencode#${f.session ?? ''}`] : [f.path]) : [];
          const id = f?.found ? (f.session ?? sessionIdOf(f.path)) : null;
          hit = { at: Date.now(), sig, keys, session: f?.found && id ? { pane: p.id, agent: p.harness, id, path: f.path } : null };
          this.#cache.set(p.id, hit);
        }
        for (const k of hit.keys) out.set(k, p.id);
      }),
    );
    for (const id of this.#cache.keys()) if (!live.some((p) => p.id === id)) this.#cache.delete(id);
    return out;
  }

  /** The session of every agent pane whose transcript is found, as last looked up by `byKey`. */
  async sessions(): Promise<PaneSession[]> {
    await this.byKey();
    return [...this.#cache.values()].flatMap((h) => (h.session ? [h.session] : []));
  }
}
