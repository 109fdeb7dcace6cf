/**
 * The lead's phone on a member's pane or durable agent: each call goes down the member's
 * stream (lead-calls.ts) and its answer is checked against the phone API's own schema, with
 * the member's ids turned into the lead's. A local pane or agent is this machine's own.
 */
import { z } from 'zod';
import {
  ClosedListResult,
  ConversationReadResult,
  PaneChatPage,
  SendReceipt,
  SessionChat,
  SessionResumed,
  SessionsPage,
  type SessionSummary,
  TapResult,
  leadAgentName,
  splitAgentName,
  type BoxRequest,
  type CallPath,
  type CrewCallBody,
  type PaneChatMessage,
  type PaneScreen,
} from '@collie/protocol';
import type { DurableService } from '../durable';
import { ApiError } from '../http/api-error';
import type { CancelResult } from '../send/send-service';
import type { PaneChats } from '../transcripts';
import type { MemberSessions } from '../sessions/crew-sessions';
import { maskConversation, maskItem } from './lead-durable';
import type { LeadCalls } from './lead-calls';
import { leadPaneId, splitPaneId } from './lead-link';
import { maskReceipt } from './mask-up';

type Mask = (text: string) => string;
/** Masks screen lines (the redactor's own, which keeps escapes and widths). */
type MaskLines = (lines: string[], width: number) => string[];

const CancelAnswer = z.union([
  z.object({ ok: z.literal(true), receipt: SendReceipt }),
  z.object({ ok: z.literal(false), code: z.enum(['not_found', 'conflict']), receipt: SendReceipt.nullable() }),
]);
const VersionAnswer = z.object({ name: z.string(), version: z.string().min(1).max(40) });

export interface LeadPhone {
  box(paneId: string, req: BoxRequest): Promise<SendReceipt>;
  cancel(paneId: string, requestId: string): Promise<CancelResult>;
  chatPage(paneId: string, before: number | null, limit: number): Promise<PaneChatPage | null>;
  watchScreen(paneId: string, send: (f: PaneScreen) => void): (() => void) | null;
  watchChat(paneId: string, send: (m: PaneChatMessage) => void): (() => void) | null;
  tap(agent: string, path: CallPath, body: { requestId: string }): Promise<TapResult>;
  closed(agent: string, cursor: string | null): Promise<ClosedListResult>;
  read(agent: string, id: string): Promise<ConversationReadResult | null>;
  /** Ask one member for the version it runs now. */
  version(member: string, ms?: number): Promise<string>;
  /** A member's sessions (the Sessions page): its list, a session read, a session resumed there. */
  sessions: MemberSessions;
}

/** A member's sessions are asked this long at most for a page (an away member must not hold the page up). */
const SESSIONS_LIST_MS = 8000;

export function leadPhone(calls: LeadCalls, connected: (member: string) => boolean, mask: Mask, maskLines: MaskLines): LeadPhone {
  const where = (paneId: string) => {
    const w = splitPaneId(paneId);
    if (!w) throw new ApiError('not_found', `crew: '${paneId.slice(0, 100)}' is not a member's pane`);
    return w;
  };
  const ask = async <T>(member: string, body: CrewCallBody, schema: z.ZodType<T>, ms?: number): Promise<T> => {
    const value = await calls.call(member, body, ms);
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new ApiError('bad_request', `crew: ${member} answered something that is not a ${body.op} answer`);
    return parsed.data;
  };
  const receiptUp = (member: string, r: SendReceipt): SendReceipt => ({ ...maskReceipt(r, mask), paneId: leadPaneId(member, r.paneId) });
  const chatUp = <T extends PaneChatPage>(member: string, page: T, leadId: string): T => ({
    ...page,
    id: leadId,
    reason: page.reason === null ? null : mask(page.reason),
    source: page.source && { ...page.source, path: mask(page.source.path) },
    items: page.items.map((i) => maskItem(i, mask)),
  });
  // A member's session on the lead: masked again, its pane the lead's id for it, the member named.
  const sessionUp = (member: string, s: SessionSummary): SessionSummary => ({ ...s, title: s.title === null ? null : mask(s.title), pane: s.pane === null ? null : leadPaneId(member, s.pane), machine: member });
  const watch = <F extends PaneScreen | PaneChatMessage>(kind: 'screen' | 'chat', paneId: string, send: (f: F) => void, up: (f: F) => F) => {
    const w = splitPaneId(paneId);
    if (!w) return null;
    return calls.watch(w.member, kind, w.id, paneId, (f) => send(up(f as F)), () => undefined);
  };
  return {
    async box(paneId, req) {
      const w = where(paneId);
      return receiptUp(w.member, await ask(w.member, { op: 'box', pane: w.id, body: req }, SendReceipt));
    },
    async cancel(paneId, requestId) {
      const w = where(paneId);
      const r = await ask(w.member, { op: 'cancel', pane: w.id, requestId }, CancelAnswer);
      return r.ok ? { ok: true, receipt: receiptUp(w.member, r.receipt) } : { ok: false, code: r.code, receipt: r.receipt && receiptUp(w.member, r.receipt) };
    },
    async chatPage(paneId, before, limit) {
      const w = where(paneId);
      try {
        return chatUp(w.member, await ask(w.member, { op: 'chat.page', pane: w.id, before, limit }, PaneChatPage), paneId);
      } catch (err) {
        if (err instanceof ApiError && err.code === 'not_found') return null;
        throw err;
      }
    },
    watchScreen: (paneId, send) => watch<PaneScreen>('screen', paneId, send, (f) => ({ ...f, lines: maskLines(f.lines, f.width) })),
    watchChat: (paneId, send) => watch<PaneChatMessage>('chat', paneId, send, (f) => chatUp(splitPaneId(paneId)!.member, f, paneId)),
    async tap(agent, path, body) {
      const a = splitAgentName(agent)!;
      if (!connected(a.member)) return { outcome: 'unsure', reason: `${a.member} is not connected to the lead; try again once it is.`, conversationId: null };
      const { requestId, ...rest } = body as { requestId: string } & Record<string, unknown>;
      try {
        return await ask(a.member, { op: 'durable.tap', agent: a.name, path, body: { ...rest, request_id: requestId } }, TapResult);
      } catch (err) {
        // Carried but not answered: it may have arrived; the same request id acts once.
        if (err instanceof ApiError && err.code === 'member_unreachable') return { outcome: 'unsure', reason: err.message.replace(/^crew: /, ''), conversationId: null };
        throw err;
      }
    },
    async closed(agent, cursor) {
      const a = splitAgentName(agent)!;
      if (!connected(a.member)) return { state: 'no_answer' };
      try {
        const r = await ask(a.member, { op: 'durable.closed', agent: a.name, cursor }, ClosedListResult);
        return r.state === 'ok' ? { ...r, conversations: r.conversations.map((c) => ({ ...c, title: c.title === null ? null : mask(c.title), subtitle: c.subtitle === null ? null : mask(c.subtitle) })) } : r;
      } catch {
        return { state: 'no_answer' };
      }
    },
    async read(agent, id) {
      const a = splitAgentName(agent)!;
      if (!connected(a.member)) return null;
      try {
        const r = await ask(a.member, { op: 'durable.read', agent: a.name, id }, ConversationReadResult.nullable());
        return r && { conversation: { ...maskConversation(r.conversation, a.member, mask), agent: leadAgentName(a.member, a.name) }, items: r.items.map((i) => maskItem(i, mask)), closed: r.closed };
      } catch {
        return null;
      }
    },
    version: async (member, ms) => (await ask(member, { op: 'version' }, VersionAnswer, ms)).version,
    sessions: {
      async list(member, query) {
        const page = await ask(member, { op: 'sessions.list', query }, SessionsPage, SESSIONS_LIST_MS);
        return { ...page, sessions: page.sessions.map((s) => sessionUp(member, s)) };
      },
      async read(member, agent, id, before, limit) {
        const chat = await ask(member, { op: 'sessions.read', agent, id, before, limit }, SessionChat);
        return { ...chat, session: sessionUp(member, chat.session), items: chat.items.map((i) => maskItem(i, mask)) };
      },
      async resume(member, agent, id, body) {
        const r = await ask(member, { op: 'sessions.resume', agent, id, body }, SessionResumed);
        return { ...r, pane: leadPaneId(member, r.pane) };
      },
    },
  };
}

/** The phone's durable agents on a lead: a member's (`@<member>/…`) through its member. */
export function phoneDurable(local: Pick<DurableService, 'tap' | 'closed' | 'read'>, crew: () => LeadPhone | null): Pick<DurableService, 'tap' | 'closed' | 'read'> {
  const member = (agent: string) => (splitAgentName(agent) ? crew() : null);
  return {
    tap: (agent, path, body) => member(agent)?.tap(agent, path, body) ?? local.tap(agent, path, body),
    closed: (agent, cursor) => member(agent)?.closed(agent, cursor) ?? local.closed(agent, cursor),
    read: (agent, id) => member(agent)?.read(agent, id) ?? local.read(agent, id),
  };
}

/** The phone's pane Chat on a lead: a member's pane through its member. */
export function phoneChats(local: Pick<PaneChats, 'page' | 'watch'>, crew: () => LeadPhone | null): Pick<PaneChats, 'page' | 'watch'> {
  const member = (id: string) => (splitPaneId(id) ? crew() : null);
  return {
    page: (id, before, limit) => member(id)?.chatPage(id, before, limit) ?? local.page(id, before, limit),
    watch: (id, send) => {
      const m = member(id);
      return m ? m.watchChat(id, send) : local.watch(id, send);
    },
  };
}
