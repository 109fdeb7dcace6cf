import {
  ConversationMeta,
  WireItem,
  type Button,
  type ConversationMeta as Meta,
  type KnownQuestion,
  type Progress,
  type ToolStatus,
  type WireConversation,
  type WireItemInput,
} from '@collie/protocol';
import { Ask, type QuestionSpec } from './ask';
import type { EventBody } from './event-log';

type ItemDraft = WireItemInput extends infer E ? (E extends WireItemInput ? Omit<E, 'id' | 'at'> : never) : never;

/** What a conversation needs from its agent: ids, the clock, and where its changes go. */
export interface ConversationHost {
  now(): number;
  id(prefix: string): string;
  emit(e: EventBody): void;
  closed(c: Conversation): void;
}

/** A belt button with what a tap does. A tap that throws is refused with the error's message. */
export interface ButtonSpec {
  id: string;
  label: string;
  icon?: string | null;
  busy?: boolean;
  disabled?: boolean;
  onTap: (c: Conversation) => void | Promise<void>;
}

/** An item's own id and time, for an agent that writes its items again after a restart. */
export interface Stable {
  id?: string;
  at?: number;
}

/** A growing item: `append` text, then `settle`. */
export interface ItemHandle {
  readonly id: string;
  append(text: string): void;
  settle(text?: string): void;
}

/** A tool call: running until `done`, `fail` or `deny`. */
export interface ToolHandle {
  readonly id: string;
  readonly callId: string;
  output(text: string): void;
  done(output?: string): void;
  fail(output?: string): void;
  deny(): void;
}

/**
 * One open conversation. Every change streams to the bridge at once.
 *
 * @example
 * const c = agent.open({ title: 'Save a note' });
 * const r = c.reply('Saving', { growing: true });
 * r.append('…'); r.settle('Saved.');
 */
export class Conversation {
  meta: Meta;
  readonly items: WireItem[] = [];
  readonly asks = new Map<string, Ask>();
  readonly handlers = new Map<string, ButtonSpec['onTap']>();
  closed = false;

  constructor(
    private readonly host: ConversationHost,
    init: { id?: string; title?: string | null; subtitle?: string | null; workspace?: string | null },
  ) {
    const now = host.now();
    this.meta = ConversationMeta.parse({ ...init, id: init.id ?? host.id('c'), openedAt: now, updatedAt: now, turn: host.id('t') });
  }

  get id(): string {
    return this.meta.id;
  }

  /** Title, subtitle, workspace, working. */
  set(fields: Partial<Pick<Meta, 'title' | 'subtitle' | 'workspace' | 'working'>>): void {
    this.change(fields);
  }

  /** A new turn starts (the conversation works); belt taps naming an older turn no longer run. */
  startTurn(): string {
    const turn = this.host.id('t');
    this.change({ turn, working: true });
    return turn;
  }

  endTurn(): void {
    this.change({ working: false, progress: null });
  }

  /** Steps (`[{label, state}]`), a percent with its label, or null. */
  progress(p: Progress | null): void {
    this.change({ progress: p });
  }

  buttons(specs: ButtonSpec[]): void {
    this.handlers.clear();
    const buttons: Button[] = specs.map((b) => {
      this.handlers.set(b.id, b.onTap);
      return { id: b.id, label: b.label, icon: b.icon ?? null, busy: b.busy ?? false, disabled: b.disabled ?? false };
    });
    this.change({ buttons });
  }

  /** `o.id` and `o.at`: an item written again after a restart keeps its id and time, so the bridge holds it once. */
  user(text: string, requestId: string | null = null, o: Stable = {}): void {
    this.add({ kind: 'user', text, requestId }, o);
  }
  reply(text: string, o: { growing?: boolean } & Stable = {}): ItemHandle {
    return this.growing('reply', text, o.growing, o);
  }
  thinking(text: string, o: { growing?: boolean } = {}): ItemHandle {
    return this.growing('thinking', text, o.growing);
  }
  notice(text: string): void {
    this.add({ kind: 'notice', text });
  }
  markdown(text: string, o: { growing?: boolean } = {}): ItemHandle {
    return this.growing('markdown', text, o.growing);
  }
  code(text: string, language: string | null = null): void {
    this.add({ kind: 'code', text, language });
  }
  link(url: string, label: string | null = null): void {
    this.add({ kind: 'link', url, label });
  }

  tool(name: string, input = '', callId: string = this.host.id('call'), o: Stable = {}): ToolHandle {
    const id = this.add({ kind: 'tool', name, input, callId, status: 'running', output: '', final: false }, o);
    const settle = (status: ToolStatus, output?: string) => {
      const item = this.find(id);
      if (item?.kind === 'tool') this.put({ ...item, status, output: output ?? item.output, final: true });
    };
    return {
      id,
      callId,
      output: (text) => this.append(id, text, false),
      done: (output) => settle('done', output),
      fail: (output) => settle('failed', output),
      deny: () => settle('denied'),
    };
  }

  /**
   * Ask the person a question. Resolves to the answer, the expiry, the agent's own decision,
   * a stop, or the close. Only a tap from the phone answers it, once.
   *
   * @example
   * const r = await c.ask({ kind: 'permission', title: 'Write notes/today.md?', toolCall: { id: t.callId, name: 'write_file' },
   *   options: [{ id: 'y', action: 'allow', label: 'Yes' }, { id: 'n', action: 'deny', label: 'No' }], expiresInMs: 120_000 });
   * if (r.status === 'answered' && r.answer.kind === 'permission' && r.answer.option === 'y') write();
   */
  ask(spec: QuestionSpec): Ask {
    const id = spec.id ?? this.host.id('q');
    const ask = new Ask(id, spec, {
      now: () => this.host.now(),
      asked: (question: KnownQuestion) => this.host.emit({ type: 'question.asked', conversationId: this.id, question }),
      ended: (questionId, reason) => this.host.emit({ type: 'question.ended', conversationId: this.id, questionId, reason }),
    });
    this.asks.set(id, ask);
    return ask;
  }

  /** Open questions, as the stream's `sync` carries them. */
  openQuestions(): KnownQuestion[] {
    return [...this.asks.values()].filter((a) => !a.ended).map((a) => a.question);
  }

  /** The turn was stopped: open questions end, the turn ends, and the thread says "stopped". */
  stopped(): void {
    for (const a of this.asks.values()) a.cancel('stopped');
    this.endTurn();
    this.notice('stopped');
  }

  close(): void {
    if (this.closed) return;
    for (const a of this.asks.values()) a.cancel('closed');
    this.closed = true;
    this.host.closed(this);
  }

  wire(): WireConversation {
    return { ...this.meta, items: [...this.items], questions: this.openQuestions() };
  }

  private change(fields: Partial<Meta>): void {
    this.meta = { ...this.meta, ...fields, updatedAt: this.host.now() };
    if (!this.closed) this.host.emit({ type: 'conversation.updated', conversation: this.meta });
  }

  private growing(kind: 'reply' | 'thinking' | 'markdown', text: string, growing = false, o: Stable = {}): ItemHandle {
    const id = this.add({ kind, text, final: !growing }, o);
    return {
      id,
      append: (more) => this.append(id, more, false),
      settle: (final) => {
        const item = this.find(id);
        if (!item || item.kind === 'link' || item.kind === 'tool') return;
        if (final === undefined) this.append(id, '', true);
        else this.put({ ...item, text: final, final: true });
      },
    };
  }

  private add(input: ItemDraft, o: Stable = {}): string {
    const item = WireItem.parse({ ...input, id: o.id ?? this.host.id('i'), at: o.at ?? this.host.now() });
    this.put(item);
    return item.id;
  }

  private put(item: WireItem): void {
    const at = this.items.findIndex((i) => i.id === item.id);
    if (at >= 0) this.items[at] = item;
    else this.items.push(item);
    this.meta = { ...this.meta, updatedAt: this.host.now() };
    this.host.emit({ type: 'item', conversationId: this.id, item });
  }

  private append(id: string, text: string, final: boolean): void {
    const item = this.find(id);
    if (!item || item.kind === 'link') return;
    const grown: WireItem = item.kind === 'tool' ? { ...item, output: item.output + text, final } : { ...item, text: item.text + text, final };
    this.items[this.items.indexOf(item)] = grown;
    this.host.emit({ type: 'item.append', conversationId: this.id, itemId: id, text, final });
  }

  private find(id: string): WireItem | undefined {
    return this.items.find((i) => i.id === id);
  }
}
