/**
 * A member's side of the lead's calls and watches (crew-phone.ts): each call runs through this
 * machine's own services (the send protocol's box and cancel, the pane Chat, the durable
 * agents' taps with their request ids), so a call carried twice acts once. Watches follow a
 * pane's screen or Chat and send each frame up until the lead unwatches or the stream drops.
 */
import {
  DurableAnswerRequest,
  DurableButtonRequest,
  DurableCloseRequest,
  DurableMessageRequest,
  DurableReopenRequest,
  DurableStarterRequest,
  DurableStopRequest,
  type CallPath,
  type CrewCall,
  type CrewUnwatch,
  type CrewUp,
  type CrewWatch,
  type PaneChatMessage,
  type PaneScreen,
} from '@collie/protocol';
import type { z } from 'zod';
import type { DurableService } from '../durable';
import { toApiError } from '../http/api-error';
import type { PaneChats } from '../transcripts';
import type { SendService } from '../send/send-service';
import type { SessionActions } from '../sessions/actions';

/** What a member lends its lead's phone, besides send, keys and answer. */
export interface MemberPhone {
  sends: Pick<SendService, 'box' | 'cancel'>;
  chats: Pick<PaneChats, 'page' | 'watch'>;
  watchScreen(id: string, send: (f: PaneScreen) => void): (() => void) | null;
  durable: Pick<DurableService, 'tap' | 'closed' | 'read'>;
  /** This machine's sessions, listed, read and resumed for the lead's Sessions page. */
  sessions: SessionActions;
  version: string;
}

/** The phone's own schema of each tap, as `/api/durable/<path>` checks it. */
const TAPS: Record<CallPath, z.ZodType<{ agent: string; request_id: string }>> = {
  '/answer': DurableAnswerRequest,
  '/message': DurableMessageRequest,
  '/stop': DurableStopRequest,
  '/button': DurableButtonRequest,
  '/starter': DurableStarterRequest,
  '/reopen': DurableReopenRequest,
  '/close': DurableCloseRequest,
};

class CallError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class MemberCalls {
  private readonly watches = new Map<string, () => void>();

  constructor(
    private readonly phone: MemberPhone,
    private readonly name: string,
    private readonly up: (f: CrewUp) => void,
    private readonly hasPane: (id: string) => boolean,
  ) {}

  /** One call of the lead; its value or its error goes back as `result`. */
  async call(f: CrewCall): Promise<void> {
    try {
      this.up({ type: 'result', id: f.id, value: await this.run(f.call), error: null });
    } catch (err) {
      const code = err instanceof CallError ? err.code : toApiError(err).code;
      this.up({ type: 'result', id: f.id, value: null, error: { code, message: (err as Error).message.slice(0, 500) } });
    }
  }

  watch(f: CrewWatch): void {
    if (this.watches.has(f.id)) return;
    const send = (frame: PaneScreen | PaneChatMessage) => this.up({ type: 'feed', id: f.id, frame });
    const stop = f.kind === 'screen' ? this.phone.watchScreen(f.pane, send) : this.phone.chats.watch(f.pane, send);
    if (!stop) return this.up({ type: 'feed.end', id: f.id, reason: `crew: ${this.name} has no pane '${f.pane.slice(0, 100)}'` });
    this.watches.set(f.id, stop);
  }

  unwatch(f: CrewUnwatch): void {
    this.watches.get(f.id)?.();
    this.watches.delete(f.id);
  }

  /** The stream dropped: every watch ends (the lead watches again on its next stream). */
  reset(): void {
    for (const stop of this.watches.values()) stop();
    this.watches.clear();
  }

  private pane(id: string): void {
    if (!this.hasPane(id)) throw new CallError('not_found', `crew: ${this.name} has no pane '${id.slice(0, 100)}'`);
  }

  private async run(c: CrewCall['call']): Promise<unknown> {
    switch (c.op) {
      case 'box':
        this.pane(c.pane);
        return this.phone.sends.box(c.pane, c.body);
      case 'cancel':
        this.pane(c.pane);
        return this.phone.sends.cancel(c.pane, c.requestId);
      case 'chat.page': {
        const page = await this.phone.chats.page(c.pane, c.before, c.limit);
        if (!page) throw new CallError('not_found', `crew: ${this.name} has no pane '${c.pane.slice(0, 100)}'`);
        return page;
      }
      case 'durable.tap': {
        const parsed = TAPS[c.path].safeParse({ ...c.body, agent: c.agent });
        if (!parsed.success) throw new CallError('bad_request', `crew: ${c.path}: ${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? 'does not match'}`);
        const { agent, request_id, ...rest } = parsed.data as { agent: string; request_id: string } & Record<string, unknown>;
        return this.phone.durable.tap(agent, c.path, { ...rest, requestId: request_id });
      }
      case 'durable.closed':
        return this.phone.durable.closed(c.agent, c.cursor);
      case 'durable.read':
        return this.phone.durable.read(c.agent, c.id);
      case 'version':
        return { name: this.name, version: this.phone.version };
      case 'sessions.list':
        return this.phone.sessions.list(c.query);
      case 'sessions.read':
        return this.phone.sessions.read(c.agent, c.id, c.before, c.limit);
      case 'sessions.resume':
        return this.phone.sessions.resume(c.agent, c.id, c.body);
    }
  }
}
