import { momentWords, paneContextTitle, paneLimitTitle, paneReadyTitle, type Harness, type Pane } from '@collie/protocol';
import { paneName } from './ask-text';

/** A usage push, as the sender gets it. */
export interface UsageShow {
  kind: 'limit' | 'ready' | 'context';
  tag: string;
  title: string;
  body: string;
  url: string;
}

export interface UsagePushDeps {
  now: () => number;
  /** A timer; returns its cancel. Tests pass a manual clock. */
  timer: (ms: number, run: () => void) => () => void;
  show: (push: UsageShow) => void;
  withdraw: (tag: string) => void;
  /**
   * True when a send waits for this pane's limit to reset (a send scheduled `when: "limit-reset"`,
   * or one this reset, `resetsAt`, already fired): only then does the reset push "Ready again".
   * Absent: no send waits.
   */
  waitsForReset?: (paneId: string, resetsAt?: string) => boolean;
  /** A pane another machine pushes (see PanePushDeps.leave). */
  leave?: (paneId: string) => boolean;
}

const AGENT: Partial<Record<Harness, string>> = { claude: 'Claude Code', codex: 'Codex', gemini: 'Gemini CLI', opencode: 'OpenCode', pi: 'pi', omp: 'omp', aider: 'Aider' };
/** Context share that pushes (once per session, when the setting is on). */
export const CONTEXT_PUSH = 0.9;

interface Limited {
  tag: string;
  resetsAt: string | undefined;
  cancelReady: () => void;
  /** "Ready again" at this reset: pushed, or not to be pushed (done once). */
  readyDone: boolean;
}

/**
 * A pane's usage pushes: its usage limit reached (once, withdrawn when the pane works again or
 * the limit lifts), "Ready again" at the reset when a send waits for it, and its context passing
 * 90 % (once per session: again only after the context fell back under it, as a new session's
 * does). Pure apart from its deps.
 */
export class UsagePushes {
  private readonly limited = new Map<string, Limited>();
  /** Panes whose context push went out and has not fallen back under the line. */
  private readonly full = new Set<string>();

  constructor(private readonly d: UsagePushDeps) {}

  update(p: Pane): void {
    this.limit(p);
    this.context(p);
  }

  removed(id: string): void {
    const was = this.limited.get(id);
    if (was) this.lift(id, was);
    this.full.delete(id);
  }

  stop(): void {
    for (const l of this.limited.values()) l.cancelReady();
    this.limited.clear();
  }

  private limit(p: Pane): void {
    const limit = p.usage?.limit;
    const reached = limit?.state === 'reached' && p.state !== 'working';
    const was = this.limited.get(p.id);
    if (!reached) {
      if (was) this.lift(p.id, was, p);
      return;
    }
    if (was && was.resetsAt === limit.resetsAt) return;
    if (was) was.cancelReady();
    const tag = `limit-${p.id}`;
    const entry: Limited = { tag, resetsAt: limit.resetsAt, cancelReady: () => undefined, readyDone: false };
    this.limited.set(p.id, entry);
    if (!was && this.d.leave?.(p.id) !== true) {
      const resets = limit.resetsAt ? momentWords(limit.resetsAt, this.d.now()) || null : null;
      this.d.show({ kind: 'limit', tag, title: paneLimitTitle(paneName(p), AGENT[p.harness] ?? p.harness, resets), body: '', url: `#/pane/${encodeURIComponent(p.id)}` });
    }
    const at = limit.resetsAt ? Date.parse(limit.resetsAt) : NaN;
    // setTimeout holds at most 2^31 - 1 ms (24.8 days); a later reset pushes nothing.
    if (Number.isFinite(at) && at - this.d.now() < 2 ** 31 - 1) {
      entry.cancelReady = this.d.timer(Math.max(0, at - this.d.now()), () => {
        if (this.limited.get(p.id) === entry) this.ready(p, entry);
      });
    }
  }

  /** "Ready again", once per reset, when a send waits for it. */
  private ready(p: Pane, entry: Limited): void {
    if (entry.readyDone) return;
    entry.readyDone = true;
    if (this.d.waitsForReset?.(p.id, entry.resetsAt) !== true || this.d.leave?.(p.id) === true) return;
    this.d.show({ kind: 'ready', tag: `ready-${p.id}`, title: paneReadyTitle(paneName(p)), body: 'Its usage limit has reset; the waiting send goes now.', url: `#/pane/${encodeURIComponent(p.id)}` });
  }

  /**
   * The limit is over. When its reset has come (the agent went on by itself at the reset, as
   * Claude Code does, and the screen showed that before the reset's timer rang), that is the reset.
   */
  private lift(id: string, was: Limited, p?: Pane): void {
    const at = was.resetsAt ? Date.parse(was.resetsAt) : NaN;
    if (p && Number.isFinite(at) && at <= this.d.now()) this.ready(p, was);
    was.cancelReady();
    this.limited.delete(id);
    this.d.withdraw(was.tag);
  }

  private context(p: Pane): void {
    const u = p.usage;
    const share = u && u.contextTokens !== undefined && u.contextWindow ? u.contextTokens / u.contextWindow : null;
    if (share === null || share < CONTEXT_PUSH) {
      this.full.delete(p.id);
      return;
    }
    if (this.full.has(p.id)) return;
    this.full.add(p.id);
    if (this.d.leave?.(p.id) === true) return;
    this.d.show({ kind: 'context', tag: `context-${p.id}`, title: paneContextTitle(paneName(p), Math.round(share * 100)), body: u?.model ?? '', url: `#/pane/${encodeURIComponent(p.id)}` });
  }
}
