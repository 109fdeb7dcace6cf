import type { Pane } from '@collie/protocol';
import { findTranscript, readerOf } from '../transcripts/finders';

/** A pane's finding is looked up again after this long, or when its process or state changes. */
const FRESH_MS = 3000;

/**
 * Which session each agent pane runs now, by the transcript finders (the same that find a
 * pane's Chat): keys are a session file's path, or `opencode#<id>` for OpenCode's database.
 */
export class RunningSessions {
  #cache = new Map<string, { at: number; sig: string; keys: string[] }>();

  constructor(
    private readonly panes: () => Pane[],
    private readonly procRoot: string,
  ) {}

  async byKey(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const live = this.panes().filter((p) => readerOf(p.harness) !== null);
    await Promise.all(
      live.map(async (p) => {
        const sig = `${p.pid}|${p.command}|${p.state}`;
        let hit = this.#cache.get(p.id);
        if (!hit || hit.sig !== sig || Date.now() - hit.at > FRESH_MS) {
          const f = await findTranscript(p, this.procRoot).catch(() => null);
          const keys = f?.found ? (readerOf(p.harness)?.kind === 'opencode' ? [`${f.path}#${f.session ?? ''}`, `opencode#${f.session ?? ''}`] : [f.path]) : [];
          hit = { at: Date.now(), sig, keys };
          this.#cache.set(p.id, hit);
        }
        for (const k of hit.keys) out.set(k, p.id);
      }),
    );
    for (const id of this.#cache.keys()) if (!live.some((p) => p.id === id)) this.#cache.delete(id);
    return out;
  }
}
