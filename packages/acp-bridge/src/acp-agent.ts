import type * as acp from '@agentclientprotocol/sdk';
import { methods } from '@agentclientprotocol/sdk';
import { LIMITS, type ClosedConversation } from '@collie/protocol';
import { DurableAgent, Refusal, type Conversation } from '@collie/durable-sdk';
import { elicitationCard, elicitationResponse } from './elicit';
import { within, type Link, type LinkHandlers } from './link';
import { permissionOutcome, permissionSpec } from './map';
import { drawBelt } from './belt';
import { fits, refusal, SILENT_TURN, STOP_NOTICE } from './agent-words';
import { Thread } from './thread';

export interface AcpAgentOptions {
  /** The name in sources.json; the permission push says it. */
  name: string;
  /** The folder sessions run in; files and terminals are confined to it. */
  cwd: string;
  /** A request to the agent (session/new, load, set_mode) that takes longer fails with a notice. Default 60 s. */
  requestMs?: number;
  /** A turn in which the agent says nothing this long (and asks nothing) is cancelled with a notice. Default 10 min. */
  hangMs?: number;
  /** The file that keeps the request ids run, so a retry after a restart of this process runs none twice. */
  requestLog?: string;
}

/**
 * The durable agent that stands for one ACP agent: conversations are ACP sessions, a line from
 * the phone is a `session/prompt`, Stop is `session/cancel`, permission and elicitation requests
 * are cards. The link to the process comes and goes (`attach`/`detach`); conversations stay.
 */
export class AcpAgent implements LinkHandlers {
  readonly durable: DurableAgent;
  private link: Link | null = null;
  private readonly threads = new Map<string, Thread>();
  private readonly closed: ClosedConversation[] = [];
  private readonly queues = new Map<string, Promise<void>>();
  /** The link each thread's session lives in: after a restart the session must be loaded again. */
  private readonly linked = new WeakMap<Thread, Link>();
  private readonly watchdog: NodeJS.Timeout;
  private readonly requestMs: number;
  private readonly hangMs: number;

  constructor(readonly o: AcpAgentOptions) {
    this.requestMs = o.requestMs ?? 60_000;
    this.hangMs = o.hangMs ?? 600_000;
    this.durable = new DurableAgent({
      runtime: 'acp',
      controls: { steer: false, close: true, history: true, reopen: true },
      starters: [{ id: 'new', label: 'New conversation', line: `In ${o.cwd}`.slice(0, LIMITS.starterLine), onStart: () => this.newConversation() }],
      onMessage: (c, text) => this.enqueue(c, text),
      onStop: (c) => this.cancel(c),
      onReopen: (id) => this.reopen(id),
      closedList: (cursor) => this.closedList(cursor),
      requestLog: o.requestLog,
    });
    this.durable.log.subscribe((e) => {
      if (e.type === 'conversation.closed') void this.closedByPhone(e.id);
    });
    this.watchdog = setInterval(() => this.checkHangs(), Math.min(5_000, this.hangMs / 2));
    this.watchdog.unref();
  }

  /** A link is up: conversations carry on with it (their sessions load on the next line). */
  attach(link: Link): void {
    this.link = link;
    // The agent's capabilities are the hello's controls: Reopen only when it loads sessions.
    this.durable.controls.reopen = link.init.agentCapabilities?.loadSession === true;
  }

  /** The link went down: every turn ends, every card is decided, the phone reads why. */
  detach(why: string, next: string): void {
    this.link = null;
    for (const t of this.threads.values()) {
      t.endTurn(true);
      for (const a of t.c.asks.values()) a.decide();
      if (t.c.meta.working) t.c.endTurn();
      t.c.notice(`${why}. ${next}`.slice(0, 2_000));
    }
  }

  /** A notice in every open conversation. */
  announce(text: string): void {
    for (const t of this.threads.values()) t.c.notice(text);
  }

  close(): void {
    clearInterval(this.watchdog);
  }

  // --- LinkHandlers: what the agent asks of us ---

  update(n: acp.SessionNotification): void {
    this.bySession(n.sessionId)?.update(n.update);
  }

  folder(_sessionId: string): string {
    return this.o.cwd;
  }

  async permission(req: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse> {
    const t = this.bySession(req.sessionId);
    if (!t || req.options.length === 0) return { outcome: { outcome: 'cancelled' } };
    t.settle();
    t.asked(req.toolCall);
    const { spec, optionIds } = permissionSpec(req, this.o.name);
    const ask = t.c.ask(spec);
    signal.addEventListener('abort', () => ask.decide(), { once: true });
    const r = await ask;
    const answer = r.status === 'answered' ? r.answer : null;
    t.lastHeard = Date.now();
    const out = permissionOutcome(answer, optionIds);
    const chosen = out.outcome.outcome === 'selected' ? req.options.find((o) => out.outcome.outcome === 'selected' && o.optionId === out.outcome.optionId) : undefined;
    if (!chosen || chosen.kind.startsWith('reject')) t.denied(req.toolCall.toolCallId);
    return out;
  }

  async elicit(req: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse> {
    const t = 'sessionId' in req && typeof req.sessionId === 'string' ? this.bySession(req.sessionId) : [...this.threads.values()].find((x) => x.c.meta.working);
    const card = elicitationCard(req);
    if (!t || !card) return { action: 'decline' };
    t.settle();
    if (card.url) t.c.link(card.url, 'The agent’s link');
    const ask = t.c.ask(card.spec);
    signal.addEventListener('abort', () => ask.decide(), { once: true });
    const r = await ask;
    t.lastHeard = Date.now();
    return elicitationResponse(card, r.status === 'answered' ? r.answer : null);
  }

  // --- the phone's calls ---

  private async newConversation(): Promise<Conversation> {
    const link = this.need();
    const s = await within(link.agent.request(methods.agent.session.new, { cwd: this.o.cwd, mcpServers: [] }), this.requestMs, 'session/new').catch(refusal('session/new'));
    const c = this.durable.open({ id: fits(s.sessionId), title: 'New conversation', workspace: this.o.cwd });
    const t = new Thread(c, s.sessionId);
    t.modes = s.modes ?? null;
    t.config = s.configOptions ?? null;
    this.threads.set(c.id, t);
    this.linked.set(t, link);
    this.belt(t);
    return c;
  }

  private enqueue(c: Conversation, text: string): void {
    const t = this.threads.get(c.id);
    if (!t) throw new Refusal('This conversation is not open.');
    if (!this.link) throw new Refusal('The ACP agent is not running; it is being restarted.');
    if (c.meta.title === 'New conversation') c.set({ title: text.replace(/\s+/gu, ' ').trim().slice(0, 60) || 'Conversation' });
    // One prompt at a time per session: a line sent during a turn runs after it.
    const prev = this.queues.get(c.id) ?? Promise.resolve();
    const next = prev.then(() => this.turn(t, text)).catch(() => undefined);
    this.queues.set(c.id, next);
  }

  private async turn(t: Thread, text: string): Promise<void> {
    if (t.c.closed) return;
    t.c.startTurn();
    t.lastHeard = Date.now();
    try {
      const link = this.need();
      const sessionId = await this.session(t, link);
      const heard = t.heard;
      const prompt = link.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });
      // An agent that never answers the prompt (deaf to session/cancel too) does not hold the
      // lines after it: the watchdog or a Stop gives it up, and a late answer is dropped.
      prompt.catch(() => undefined);
      const r = await Promise.race([prompt, new Promise<null>((given) => (t.abandon = () => given(null)))]).finally(() => (t.abandon = null));
      if (r === null) {
        t.endTurn(true);
        if (t.c.meta.working) t.c.endTurn();
        return;
      }
      t.endTurn(r.stopReason === 'cancelled');
      // A turn that ends with not one update would read as ignored: the thread says so.
      const said = STOP_NOTICE[r.stopReason] ?? (r.stopReason === 'end_turn' && t.heard === heard ? SILENT_TURN : undefined);
      if (said) t.c.notice(said);
    } catch (err) {
      t.endTurn(true);
      // A prompt cut off by the agent dying: the link's own notice says why, once.
      const dying = this.link ? await Promise.race([this.link.ended.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 2_000).unref())]) : true;
      if (!dying) t.c.notice(`The prompt failed: ${err instanceof Error ? err.message : String(err)}`.slice(0, 2_000));
    }
    if (t.c.meta.working) t.c.endTurn();
  }

  /** The session behind a thread, loaded again (or made anew) after the agent restarted. */
  private async session(t: Thread, link: Link): Promise<string> {
    if (t.sessionId && link === this.linked.get(t)) return t.sessionId;
    if (t.sessionId && link.init.agentCapabilities?.loadSession) {
      await within(link.agent.request(methods.agent.session.load, { sessionId: t.sessionId, cwd: this.o.cwd, mcpServers: [] }), this.requestMs, 'session/load');
    } else {
      const s = await within(link.agent.request(methods.agent.session.new, { cwd: this.o.cwd, mcpServers: [] }), this.requestMs, 'session/new');
      if (t.sessionId) t.c.notice('A new agent session: the agent keeps no sessions, so it does not remember the earlier turns.');
      t.sessionId = s.sessionId;
      t.modes = s.modes ?? null;
      t.config = s.configOptions ?? null;
    }
    this.linked.set(t, link);
    this.belt(t);
    return t.sessionId;
  }

  private async cancel(c: Conversation): Promise<void> {
    const t = this.threads.get(c.id);
    if (t?.sessionId && this.link) await this.link.agent.notify(methods.agent.session.cancel, { sessionId: t.sessionId });
    t?.endTurn(true);
    // ACP says the agent ends the prompt with `cancelled`; one that does not is given up after requestMs.
    const give = t?.abandon;
    if (!t || !give) return;
    setTimeout(() => {
      if (t.abandon !== give) return;
      give();
      t.c.notice(`The agent did not end its turn within ${Math.round(this.requestMs / 1000)} s of Stop; the next line is sent to it anyway.`);
    }, this.requestMs).unref();
  }

  private async reopen(id: string): Promise<Conversation | null> {
    const link = this.need();
    if (!link.init.agentCapabilities?.loadSession) return null;
    const c = this.durable.open({ id: fits(id), title: this.closed.find((x) => x.id === id)?.title ?? 'Reopened conversation', workspace: this.o.cwd });
    const t = new Thread(c, id);
    this.threads.set(c.id, t);
    const i = this.closed.findIndex((x) => x.id === id);
    if (i >= 0) this.closed.splice(i, 1);
    // The agent replays the session as updates, which fill the thread.
    const s = await within(link.agent.request(methods.agent.session.load, { sessionId: id, cwd: this.o.cwd, mcpServers: [] }), this.requestMs, 'session/load').catch((err: unknown) => {
      // Not loaded: back to the closed list, and the phone reads why.
      c.close();
      return refusal('session/load')(err);
    });
    t.settle();
    t.modes = s.modes ?? null;
    t.config = s.configOptions ?? null;
    this.linked.set(t, link);
    this.belt(t);
    return c;
  }

  private async closedList(cursor: string | null): Promise<{ conversations: ClosedConversation[]; next: string | null }> {
    const link = this.link;
    if (link?.init.agentCapabilities?.sessionCapabilities?.list) {
      const r = await within(link.agent.request(methods.agent.session.list, { cwd: this.o.cwd, cursor }), 5_000, 'session/list');
      const conversations = r.sessions
        .filter((s) => !this.threads.has(s.sessionId) && s.sessionId.length <= LIMITS.id)
        .slice(0, 100)
        .map((s) => ({ id: s.sessionId, title: (s.title ?? 'Conversation').slice(0, LIMITS.conversationTitle), subtitle: null, updatedAt: Date.parse(s.updatedAt ?? '') || 0 }));
      return { conversations, next: r.nextCursor ?? null };
    }
    const from = Number(cursor ?? 0) || 0;
    return { conversations: this.closed.slice(from, from + 100), next: from + 100 < this.closed.length ? String(from + 100) : null };
  }

  private async closedByPhone(id: string): Promise<void> {
    const t = this.threads.get(id);
    if (!t) return;
    this.threads.delete(id);
    this.closed.unshift({ id, title: t.c.meta.title ?? 'Conversation', subtitle: t.c.meta.subtitle, updatedAt: Date.now() });
    const link = this.link;
    if (t.sessionId && link?.init.agentCapabilities?.sessionCapabilities?.close) {
      await within(link.agent.request(methods.agent.session.close, { sessionId: t.sessionId }), 5_000, 'session/close').catch(() => undefined);
    }
  }

  /** The session's modes and models as belt buttons (see `drawBelt`). */
  private belt(t: Thread): void {
    drawBelt(t, () => this.need(), this.requestMs, () => this.belt(t));
  }

  private checkHangs(): void {
    for (const t of this.threads.values()) {
      if (!t.c.meta.working || t.c.openQuestions().length > 0 || Date.now() - t.lastHeard < this.hangMs) continue;
      t.lastHeard = Date.now();
      void this.cancel(t.c).catch(() => undefined);
      t.abandon?.();
      t.c.endTurn();
      t.c.notice(`The agent said nothing for ${Math.round(this.hangMs / 1000)} s, so the turn was stopped.`);
    }
  }

  private bySession(sessionId: string): Thread | undefined {
    for (const t of this.threads.values()) if (t.sessionId === sessionId) return t;
    return undefined;
  }

  private need(): Link {
    if (!this.link) throw new Refusal('The ACP agent is not running; it is being restarted.');
    return this.link;
  }
}
