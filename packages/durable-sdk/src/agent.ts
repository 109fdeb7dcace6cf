import { randomBytes } from 'node:crypto';
import {
  Controls,
  fitStarters,
  Starter,
  WIRE_VERSION,
  type AgentEventInput,
  type AgentHello,
  type ClosedConversation,
  type ClosedPage,
  type ConversationMeta,
  type WireConversation,
  type WireResult,
  type CALLS,
} from '@collie/protocol';
import type { z } from 'zod';
import { Conversation, type ConversationHost } from './conversation';
import { EventLog, type EventBody } from './event-log';
import { Once } from './once';

export type Calls = { [P in keyof typeof CALLS]: z.infer<(typeof CALLS)[P]> };

/** A starter on the New conversation page; `onStart` opens the conversation it starts. */
export interface StarterSpec {
  id: string;
  label: string;
  line?: string | null;
  onStart: (agent: DurableAgent) => Conversation | Promise<Conversation>;
}

/** A handler's way to refuse, with the reason the phone shows. */
export class Refusal extends Error {}

export interface AgentOptions {
  /** The name the agent gives itself (the phone's dashboard row shows it). */
  runtime: string;
  controls?: Partial<Controls>;
  starters?: StarterSpec[];
  /**
   * A line typed on the phone, already echoed into the thread as the user's item, unless
   * `echo` is false: then the author writes it with `c.user(text, o.requestId)` when it fits
   * (an agent that queues messages writes each when its turn starts).
   */
  onMessage?: (c: Conversation, text: string, o: { steer: boolean; requestId: string }) => void | Promise<void>;
  /** Echo each phone line into the thread before `onMessage` (default true). */
  echo?: boolean;
  /** The person tapped Stop; the SDK ends open questions and the turn and notes "stopped". */
  onStop?: (c: Conversation) => void | Promise<void>;
  /** Reopen a closed conversation by id; null when it cannot. */
  onReopen?: (id: string, agent: DurableAgent) => Conversation | null | Promise<Conversation | null>;
  /** One page of closed conversations (at most 100, newest first). Without it: "keeps no list". */
  closedList?: (cursor: string | null) => Promise<{ conversations: ClosedConversation[]; next: string | null }>;
  /** Read one closed conversation. */
  readClosed?: (id: string) => Promise<WireConversation | null>;
  /** Required of a remote agent: the bearer token the bridge sends. */
  token?: string;
  /**
   * A file (0600) that keeps the request ids this agent ran and their results, so a retry after
   * a restart of the agent's process is answered with the first result, not run again. Without
   * it the ids live in memory only.
   */
  requestLog?: string;
  now?: () => number;
}

/**
 * A durable agent: its conversations, its event stream and the calls from the bridge. Serve it
 * with `listen` (a unix socket or a port).
 */
export class DurableAgent {
  readonly session = randomBytes(6).toString('hex');
  readonly controls: Controls;
  readonly log = new EventLog();
  readonly conversations = new Map<string, Conversation>();
  private readonly once: Once;
  private starters: StarterSpec[];
  private seq = 0;
  private readonly host: ConversationHost;
  readonly now: () => number;

  constructor(readonly options: AgentOptions) {
    this.now = options.now ?? Date.now;
    this.once = new Once(10_000, options.requestLog ?? null);
    this.controls = Controls.parse({
      message: options.onMessage !== undefined,
      stop: options.onStop !== undefined,
      steer: false,
      reopen: options.onReopen !== undefined,
      close: true,
      history: options.closedList !== undefined,
      ...options.controls,
    });
    this.starters = options.starters ?? [];
    this.host = {
      now: this.now,
      id: (prefix) => `${prefix}-${this.session.slice(0, 4)}-${++this.seq}`,
      emit: (e) => this.log.push(e),
      closed: (c) => {
        this.conversations.delete(c.id);
        this.log.push({ type: 'conversation.closed', id: c.id });
      },
    };
  }

  hello(): AgentHello {
    return { wire: WIRE_VERSION, name: this.options.runtime, runtime: this.options.runtime, session: this.session, controls: this.controls };
  }

  /** Open a conversation; it streams to the bridge at once. */
  open(init: { id?: string; title?: string | null; subtitle?: string | null; workspace?: string | null } = {}): Conversation {
    const c = new Conversation(this.host, init);
    this.conversations.set(c.id, c);
    this.log.push({ type: 'conversation.opened', conversation: c.wire() });
    return c;
  }

  setStarters(starters: StarterSpec[]): void {
    this.starters = starters;
    this.log.push({ type: 'starters', starters: this.starterList() });
  }

  /** The whole open state: the first line of a stream that cannot resume. */
  sync(): AgentEventInput {
    return { type: 'sync', cursor: this.log.last, conversations: [...this.conversations.values()].map((c) => c.wire()), starters: this.starterList() };
  }

  async closedPage(cursor: string | null): Promise<ClosedPage> {
    if (!this.options.closedList || !this.controls.history) return { keepsList: false };
    const page = await this.options.closedList(cursor);
    return { keepsList: true, conversations: page.conversations.slice(0, 100), next: page.next };
  }

  async read(id: string): Promise<{ conversation: WireConversation; closed: boolean } | null> {
    const open = this.conversations.get(id);
    if (open) return { conversation: open.wire(), closed: false };
    const closed = await this.options.readClosed?.(id);
    return closed ? { conversation: closed, closed: true } : null;
  }

  /** One call from the bridge; a request id runs once. */
  call<P extends keyof Calls>(path: P, body: Calls[P]): Promise<WireResult> {
    return this.once.run(body.requestId, async () => {
      try {
        return await this.dispatch(path, body);
      } catch (err) {
        return result('refused', err instanceof Refusal ? err.message : 'The durable agent could not do that.');
      }
    });
  }

  private async dispatch<P extends keyof Calls>(path: P, b: Calls[P]): Promise<WireResult> {
    const c = 'conversationId' in b ? this.conversations.get(b.conversationId) : undefined;
    if (path === '/starter' && 'starterId' in b) {
      const s = this.starters.find((x) => x.id === b.starterId);
      if (!s) return result('refused', 'That starter is gone.');
      const opened = await s.onStart(this);
      return { ...result('taken'), conversationId: opened.id };
    }
    if (path === '/reopen' && 'conversationId' in b) {
      if (c) return { ...result('taken'), conversationId: c.id };
      const opened = this.controls.reopen ? await this.options.onReopen?.(b.conversationId, this) : null;
      return opened ? { ...result('taken'), conversationId: opened.id } : result('refused', 'This conversation cannot be reopened.');
    }
    if (!c) return path === '/answer' ? result('not_open') : result('refused', 'That conversation is not open.');
    switch (path) {
      case '/answer': {
        const a = b as Calls['/answer'];
        const ask = c.asks.get(a.questionId);
        return ask ? ask.take(a.requestId, a.version, a.answer) : result('not_open');
      }
      case '/message': {
        const m = b as Calls['/message'];
        if (!this.controls.message || !this.options.onMessage) return result('refused', 'This durable agent takes no messages.');
        if (m.steer && (!this.controls.steer || !c.meta.working)) return result('moved_on');
        if (this.options.echo !== false) c.user(m.text, m.requestId);
        await this.options.onMessage(c, m.text, { steer: m.steer, requestId: m.requestId });
        return result('taken');
      }
      case '/stop':
        if (!c.meta.working) return result('moved_on');
        await this.options.onStop?.(c);
        c.stopped();
        return result('taken');
      case '/button': {
        const t = b as Calls['/button'];
        const button = c.meta.buttons.find((x) => x.id === t.buttonId);
        const onTap = c.handlers.get(t.buttonId);
        if (!button || !onTap) return result('refused', 'That button is gone.');
        if (t.turn !== c.meta.turn) return result('moved_on');
        if (button.busy || button.disabled) return result('refused', 'That button cannot act now.');
        await onTap(c);
        return result('taken');
      }
      case '/close':
        c.close();
        return result('taken');
      default:
        return result('refused', 'Unknown call.');
    }
  }

  private starterList(): Starter[] {
    return fitStarters(this.starters.map((s) => Starter.parse({ id: s.id, label: s.label, line: s.line ?? null })));
  }
}

const result = (outcome: WireResult['outcome'], reason: string | null = null): WireResult => ({ outcome, reason, conversationId: null });

export type { ConversationMeta, EventBody };
