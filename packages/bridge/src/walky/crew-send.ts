/**
 * Walky messages that cross machines of the crew: a member's to another machine's pane (through
 * the lead), a lead's to a member's pane, and the receipts that come back. Each runs through the
 * service's own checks, log and receipts (`service.ts`); nothing here keeps a record of its own.
 */
import { CREW_REASON, REFUSAL, versionBefore, WALKY_CREW_SINCE, type WalkyEnvelope, type WalkyMessage, type WalkyState } from '@collie/protocol';
import type { Carried } from './crew-port';
import type { CrewSendHost, CrewSending } from './service-deps';

/** A final receipt is never taken back by a later word; `unknown` only by a final one. */
const RANK: Record<WalkyState, number> = { accepted: 0, unknown: 1, delivered: 2, 'inbox-only': 2, refused: 2 };

export class CrewSend implements CrewSending {
  constructor(private readonly s: CrewSendHost) {}

  envelope(m: WalkyMessage, body: string, origin: string): WalkyEnvelope {
    return { v: 1, id: m.id, at: m.at, origin, from: m.from, to: m.asked, replyTo: m.replyTo, body, ...(m.broadcast ? { broadcast: m.broadcast } : {}) };
  }

  /** On a member: to another machine's pane, through the lead; the outcome comes back with its updates. */
  async viaLead(m: WalkyMessage, raw: string, waitMs: number, leadAnswer = false): Promise<WalkyMessage> {
    const self = this.s.crewSelf()!;
    const checked = this.s.checkBody(raw);
    if ('refused' in checked) return this.s.refused(m, checked.refused);
    if (versionBefore(self.leadVersion, WALKY_CREW_SINCE)) return this.s.refused(m, REFUSAL.olderLead);
    const accepted: WalkyMessage = { ...m, body: checked.body, state: 'accepted', reason: CREW_REASON.onLead };
    const unsaved = await this.s.saveFirst(accepted);
    if (unsaved) return unsaved;
    const carried = this.s.d.crew!()!
      .toLead(this.envelope(accepted, checked.body, self.name))
      .then((c) => this.carried(m.id, c))
      .catch(() => this.change(m.id, 'unknown', CREW_REASON.leadGone));
    // A broadcast's answer holds each pane's receipt as the lead answered it.
    if (leadAnswer) {
      await carried;
      return this.s.d.log.get(m.id) ?? accepted;
    }
    return waitMs > 0 ? this.s.settled(m.id, waitMs) : accepted;
  }

  /**
   * On a lead: to a member's pane. An older member refuses at once, with no dial; the member
   * gets 8 s, after which the receipt says so and the member's next update fills it in.
   */
  async toMember(m: WalkyMessage, raw: string, waitMs: number, member: string, origin?: { envelope: WalkyEnvelope; sig: string; cert: string }): Promise<WalkyMessage> {
    const self = this.s.crewSelf()!;
    const port = this.s.d.crew!()!;
    if (m.to?.harness === 'shell') return this.s.refused(m, REFUSAL.shell);
    const checked = this.s.checkBody(raw);
    if ('refused' in checked) return this.s.refused(m, checked.refused);
    const standing = port.member(member);
    if (!standing) return this.s.refused(m, REFUSAL.noPane);
    if (versionBefore(standing.version, WALKY_CREW_SINCE)) return this.s.refused(m, REFUSAL.olderMember);
    if (!standing.reachable) return this.s.refused(m, REFUSAL.unreachable);
    const accepted: WalkyMessage = { ...m, body: checked.body, state: 'accepted', reason: null, verified: origin ? 'origin' : m.verified };
    const unsaved = await this.s.saveFirst(accepted);
    if (unsaved) return unsaved;
    // A member's message travels on as its origin signed it.
    const env = origin ? origin.envelope : this.envelope(accepted, checked.body, self.name);
    const pane = m.to!.paneId.slice(member.length + 2);
    const carried = port
      .toMember(member, [{ envelope: env, pane, ...(origin ? { sig: origin.sig, cert: origin.cert } : {}) }])
      .then((c) => this.carried(m.id, c))
      .catch(() => this.change(m.id, 'unknown', CREW_REASON.slow));
    if (waitMs <= 0) {
      await carried;
      return this.s.d.log.get(m.id) ?? accepted;
    }
    return this.s.settled(m.id, waitMs);
  }

  /** What came back from passing a message on. */
  async carried(id: string, c: Carried): Promise<void> {
    if ('refused' in c) return this.change(id, 'refused', c.refused);
    if ('unknown' in c) return this.change(id, 'unknown', c.unknown);
    const r = c.messages.find((x) => x.id === id);
    if (!r) return this.change(id, 'unknown', CREW_REASON.slow);
    const self = this.s.crewSelf();
    const mine = this.s.d.log.get(id);
    // A member takes the lead's word for the pane it found (the to line of send), with the machine
    // that owns it: the crew id for the lead's own panes, so the record is never taken for one of this machine's.
    const to = self?.role === 'member' && r.to && mine && !mine.to ? { ...r.to, member: r.to.member ?? r.to.address.split('/')[0]! } : undefined;
    return this.change(id, r.state, r.state === 'accepted' && self?.role === 'member' ? CREW_REASON.onLead : r.reason, to);
  }

  /** A receipt change that came over the crew, never taking back a final one. */
  async change(id: string, state: WalkyState, reason: string | null, to?: WalkyMessage['to']): Promise<void> {
    const m = this.s.d.log.get(id);
    if (!m || RANK[state] < RANK[m.state]) return;
    if (m.state === state && m.reason === reason && !to) return;
    await this.s.keep({ ...m, state, reason, ...(to ? { to } : {}), updatedAt: this.s.d.now() });
  }
}
