import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Pane } from '@collie/protocol';
import type { RunningSessions } from './running';

/** One session a pane ran: the pane, the agent's session, and the window's name (to open it under again). */
export interface RememberedSession {
  readonly pane: string;
  readonly agent: string;
  readonly id: string;
  readonly window: string;
}

const FILE = 'running-sessions.json';
/** Pane changes come in bursts: the file is written once they settle. */
const SETTLE_MS = 500;

async function load(stateDir: string): Promise<RememberedSession[]> {
  try {
    const v = JSON.parse(await readFile(join(stateDir, FILE), 'utf8')) as { sessions?: unknown };
    if (!Array.isArray(v.sessions)) return [];
    return v.sessions.flatMap((s: unknown) => {
      const o = s as Record<string, unknown>;
      return typeof o.pane === 'string' && typeof o.agent === 'string' && typeof o.id === 'string' && typeof o.window === 'string' ? [{ pane: o.pane, agent: o.agent, id: o.id, window: o.window }] : [];
    });
  } catch {
    return [];
  }
}

/**
 * Which sessions ran in which panes, kept in `<state>/running-sessions.json` (0600) whenever a
 * pane's session is known, so that after a reboot or a crash the bridge can say which were
 * running and open each again. A pane closed while its tmux server lives is forgotten; the
 * panes of a server that died (a crash, a reboot) are kept until resumed or dismissed.
 */
export class RememberedSessions {
  #known: RememberedSession[] = [];
  /** Sessions that ran when the bridge last stopped and whose panes are gone. */
  stopped: RememberedSession[] = [];
  #timer: NodeJS.Timeout | null = null;
  #writing: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(
    private readonly stateDir: string,
    private readonly running: RunningSessions,
    private readonly panes: () => Pane[],
    private readonly servers: () => string[],
  ) {}

  /** Reads the file once the panes are known: what ran in a pane that is gone now is `stopped`. */
  async start(): Promise<void> {
    this.#known = await load(this.stateDir);
    const live = new Set(this.panes().map((p) => p.id));
    this.stopped = this.#known.filter((s) => !live.has(s.pane));
    this.#known = this.#known.filter((s) => live.has(s.pane));
    this.soon();
  }

  soon(): void {
    if (this.#closed) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#writing = this.#writing.then(() => this.#update()).catch(() => undefined);
    }, SETTLE_MS);
  }

  /** A stopped session was opened again (or dismissed): not offered any more. */
  forget(agent: string, id: string): void {
    this.stopped = this.stopped.filter((s) => !(s.agent === agent && s.id === id));
    this.soon();
  }

  async #update(): Promise<void> {
    const now = await this.running.sessions();
    const panes = new Map(this.panes().map((p) => [p.id, p]));
    const servers = new Set(this.servers());
    const next: RememberedSession[] = now.map((s) => ({ pane: s.pane, agent: s.agent, id: s.id, window: panes.get(s.pane)?.windowName ?? '' }));
    // A pane gone with its whole server (killed, crashed): kept, as after a reboot.
    for (const k of this.#known) if (!panes.has(k.pane) && !servers.has(k.pane.slice(0, k.pane.lastIndexOf(':'))) && !next.some((n) => n.agent === k.agent && n.id === k.id)) next.push(k);
    this.#known = next;
    const all = [...next, ...this.stopped.filter((s) => !next.some((n) => n.agent === s.agent && n.id === s.id))];
    if (this.#closed) return;
    const path = join(this.stateDir, FILE);
    await writeFile(`${path}.tmp`, `${JSON.stringify({ sessions: all })}\n`, { mode: 0o600 });
    await rename(`${path}.tmp`, path);
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
  }
}
