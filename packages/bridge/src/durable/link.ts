import {
  AgentEvent,
  AgentHello,
  Controls,
  Fit,
  fitStarters,
  LIMITS,
  versionWords,
  WIRE_VERSION,
  WireError,
  WireVersionOnly,
  type DurableAgent,
  type DurableAgentState,
  type Source,
  type SourceTarget,
  type Starter,
} from '@collie/protocol';
import { Mirror, type MirrorDeps } from './mirror';
import { LineSplitter } from './ndjson';
import { unreachableWords } from './reach-words';
import { wireCall, WireFailure, wireStream, type Target } from './wire-client';

export interface LinkDeps extends Omit<MirrorDeps, 'agent'> {
  source: Source;
  target: SourceTarget;
  /** Back-off bounds (ms); tests shorten them. */
  backoff?: { first: number; max: number; mismatch: number };
  /** A stream silent this long is dead (the agent pings every 15 s). */
  idleMs?: number;
}

const HELLO_MS = 5_000;

/**
 * One durable agent from sources.json: connect, read its hello (refusing another wire
 * version before anything else), follow its event stream into the hub, reconnect with back-off.
 * States: starting → ready; unreachable while it cannot connect; version_mismatch.
 */
export class AgentLink {
  state: DurableAgentState = 'starting';
  hello: AgentHello | null = null;
  wire: number | null = null;
  problem: string | null = null;
  starters: Starter[] = [];
  /** Lines of the stream that were dropped: not JSON, not wire v1, or over 4 MiB. */
  badFrames = 0;
  readonly mirror: Mirror;
  private cursor: number | null = null;
  private stopped = false;
  private readonly wake = new AbortController();
  private live: { destroy(): void } | null = null;

  constructor(private readonly d: LinkDeps) {
    this.mirror = new Mirror({ ...d, agent: d.source.name, kept: () => this.publish() });
  }

  get name(): string {
    return this.d.source.name;
  }

  get target(): Target | null {
    return this.d.target.ok ? this.d.target : null;
  }

  start(): void {
    this.publish();
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    this.wake.abort();
    this.live?.destroy();
  }

  view(): DurableAgent {
    const t = this.d.target;
    return {
      name: this.name,
      runtime: this.hello?.runtime ? new Fit().line(this.hello.runtime, LIMITS.name) || null : null,
      local: t.ok ? t.local : !('url' in this.d.source),
      state: this.state,
      wire: this.wire,
      caution: this.state === 'version_mismatch' && this.wire !== null ? versionWords(this.wire) : null,
      problem: this.problem,
      kept: this.mirror.keptWords(),
      controls: this.hello?.controls ?? Controls.parse({}),
      starters: this.starters,
      machine: null,
    };
  }

  private publish(): void {
    this.d.publish({ type: 'durable.agent.updated', agent: this.view() });
  }

  private set(state: DurableAgentState, problem: string | null = null): void {
    if (state !== 'ready' && state !== 'unreachable') this.mirror.clear();
    const changed = state !== this.state || problem !== this.problem;
    this.state = state;
    this.problem = problem;
    if (changed) this.publish();
  }

  private async run(): Promise<void> {
    const b = this.d.backoff ?? { first: 250, max: 30_000, mismatch: 60_000 };
    let wait = b.first;
    while (!this.stopped) {
      const t = this.target;
      if (!t) return this.set('unreachable', `refused: ${this.d.target.ok ? '' : this.d.target.reason}`);
      try {
        const raw = await wireCall(t, 'GET', '/hello', undefined, HELLO_MS);
        const version = WireVersionOnly.safeParse(raw);
        if (!version.success) throw new WireFailure('its hello has no wire version');
        if (version.data.wire !== WIRE_VERSION) {
          this.mismatch(version.data.wire);
          await this.sleep(b.mismatch);
          continue;
        }
        const hello = AgentHello.safeParse(raw);
        if (!hello.success) throw new WireFailure('its hello does not match wire v1');
        if (this.hello?.session !== hello.data.session) this.cursor = null;
        this.hello = hello.data;
        this.wire = WIRE_VERSION;
        await this.follow(t);
        wait = b.first;
      } catch (err) {
        const refused = err instanceof WireFailure ? WireError.safeParse(err.body) : null;
        if (refused?.success && refused.data.error.code === 'wire_version' && refused.data.error.wire !== undefined) {
          this.mismatch(refused.data.error.wire);
          await this.sleep(b.mismatch);
          continue;
        }
        const why = err instanceof Error ? err.message : String(err);
        this.set('unreachable', unreachableWords(why, 'socket' in this.d.source));
      }
      await this.sleep(wait);
      wait = Math.min(wait * 2, b.max);
    }
  }

  private mismatch(wire: number): void {
    this.wire = wire;
    this.hello = null;
    this.set('version_mismatch', null);
  }

  /** Follow the event stream until it ends. */
  private async follow(t: Target): Promise<void> {
    const q = new URLSearchParams({ session: this.hello?.session ?? '' });
    if (this.cursor !== null) q.set('since', String(this.cursor));
    let idle: NodeJS.Timeout | null = null;
    await new Promise<void>((resolve, reject) => {
      const lines = new LineSplitter(
        LIMITS.frameBytes,
        (line) => this.line(line),
        () => this.badFrames++,
      );
      const kick = () => {
        if (idle) clearTimeout(idle);
        idle = setTimeout(() => res?.destroy(), this.d.idleMs ?? 45_000);
      };
      let res: { destroy(): void } | null = null;
      wireStream(t, `/events?${q.toString()}`, (chunk) => (kick(), lines.push(chunk)), HELLO_MS).then((r) => {
        res = r;
        this.live = r;
        if (this.stopped) r.destroy();
        this.set('ready', null);
        kick();
        r.once('close', () => resolve());
        r.once('error', () => resolve());
      }, reject);
    });
    if (idle) clearTimeout(idle);
    this.live = null;
  }

  private line(text: string): void {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.badFrames++;
      return;
    }
    const parsed = AgentEvent.safeParse(json);
    if (!parsed.success) {
      this.badFrames++;
      return;
    }
    const e = parsed.data;
    if (e.type !== 'ping') this.cursor = e.cursor;
    if (e.type === 'sync' || e.type === 'starters') {
      this.starters = fitStarters(e.starters, this.d.mask);
      this.publish();
    }
    this.mirror.apply(e);
  }

  /** A back-off sleep that stop() cuts short; its listener goes when it ends either way (one per retry would pile up). */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.stopped) return resolve();
      const signal = this.wake.signal;
      const woken = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', woken);
        resolve();
      }, ms);
      signal.addEventListener('abort', woken, { once: true });
    });
  }
}
