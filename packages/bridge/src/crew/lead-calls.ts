/**
 * The lead's side of calls and watches to its members (crew-phone.ts): a call waits for the
 * member's `result` (or the member drops, or 15 s pass: `member_unreachable`); a watch passes
 * each `feed` frame to the phone with the pane's lead-side id, and is sent again when the
 * member reconnects.
 */
import { randomBytes } from 'node:crypto';
import type { CrewCallBody, CrewDown, CrewFeed, CrewFeedEnd, CrewResult, PaneChatMessage, PaneScreen } from '@collie/protocol';
import { ApiError } from '../http/api-error';
import { SendRefusal } from '../send/refusal';

const CALL_MS = 15_000;

interface Pending {
  member: string;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

interface Watch {
  member: string;
  kind: 'screen' | 'chat';
  pane: string;
  leadId: string;
  send: (f: PaneScreen | PaneChatMessage) => void;
  ended: (reason: string) => void;
}

/** An error a member answered, as the phone API's own. */
export function memberError(member: string, e: { code: string; message: string }): Error {
  if (e.code === 'empty_text' || e.code === 'request_id_reused') return new SendRefusal(e.code, e.message);
  const known = ['not_found', 'bad_request', 'conflict', 'member_unreachable'] as const;
  const code = (known as readonly string[]).includes(e.code) ? (e.code as (typeof known)[number]) : 'bad_request';
  return new ApiError(code, e.message || `crew: ${member} refused the request`);
}

export class LeadCalls {
  private readonly pending = new Map<string, Pending>();
  private readonly watches = new Map<string, Watch>();

  constructor(
    /** Sends one frame down a member's stream; false when it is not connected. */
    private readonly down: (member: string, f: CrewDown) => boolean,
  ) {}

  /** One call to `member`; its value (checked by the caller), or the phone API's error. */
  call(member: string, body: CrewCallBody, ms = CALL_MS): Promise<unknown> {
    const id = randomBytes(12).toString('base64url');
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ApiError('member_unreachable', `crew: ${member} did not answer in ${Math.round(ms / 1000)} s; try again (a request id is never acted on twice)`));
      }, ms);
      this.pending.set(id, { member, resolve, reject, timer });
      if (!this.down(member, { type: 'call', id, call: body })) {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(new ApiError('member_unreachable', `crew: ${member} is not connected to the lead`));
      }
    });
  }

  /** Follow a member pane's screen or Chat; the returned function stops. */
  watch(member: string, kind: 'screen' | 'chat', pane: string, leadId: string, send: Watch['send'], ended: Watch['ended']): () => void {
    const id = randomBytes(12).toString('base64url');
    this.watches.set(id, { member, kind, pane, leadId, send, ended });
    this.down(member, { type: 'watch', id, kind, pane });
    return () => {
      if (this.watches.delete(id)) this.down(member, { type: 'unwatch', id });
    };
  }

  frame(member: string, f: CrewResult | CrewFeed | CrewFeedEnd): void {
    if (f.type === 'result') {
      const p = this.pending.get(f.id);
      if (!p || p.member !== member) return;
      this.pending.delete(f.id);
      clearTimeout(p.timer);
      if (f.error) p.reject(memberError(member, f.error));
      else p.resolve(f.value);
      return;
    }
    const w = this.watches.get(f.id);
    if (!w || w.member !== member) return;
    if (f.type === 'feed.end') {
      this.watches.delete(f.id);
      return w.ended(f.reason);
    }
    // The frame's pane is the member's own id; the phone knows the lead-side one.
    w.send({ ...f.frame, id: w.leadId });
  }

  /** The member's stream is (again) open: its watches start over there. */
  attached(member: string): void {
    for (const [id, w] of this.watches) if (w.member === member) this.down(member, { type: 'watch', id, kind: w.kind, pane: w.pane });
  }

  /** The member dropped: its calls fail now (the phone may try again with the same request id). */
  closed(member: string): void {
    for (const [id, p] of this.pending) {
      if (p.member !== member) continue;
      this.pending.delete(id);
      clearTimeout(p.timer);
      p.reject(new ApiError('member_unreachable', `crew: ${member} dropped before it answered; try again (a request id is never acted on twice)`));
    }
  }

  /** The member was removed: its watches end. */
  forget(member: string): void {
    this.closed(member);
    for (const [id, w] of this.watches) if (w.member === member) {
      this.watches.delete(id);
      w.ended(`crew: ${member} was removed from the crew`);
    }
  }
}
