/**
 * Walky's side of the crew's routes (`CrewWalkyHost`, called by `crew/walky-relay.ts`): a
 * member's message on the lead, the lead's message on a member, a pane's list for the lead's
 * phone, and the outcomes another machine reports. Each runs through the service's own checks,
 * log and receipts (`service.ts`); nothing here keeps a record of its own.
 */
import { CREW_OUTCOME_KEEP_MS, CREW_REASON, REFUSAL, wholeMachine, type CrewWalkyItem, type CrewWalkyOutcome, type CrewWalkyTargets, type WalkyEnvelope, type WalkyMessage } from '@collie/protocol';
import type { Redactor } from '../redact';
import { isStale, type ItemCheck } from '../crew/walky-sign';
import { parseAddress } from './address';
import type { CrewWalkyHost } from './crew-port';
import type { WalkyService } from './service';
import type { WalkyLog } from './walky-log';

export interface CrewHostDeps {
  log: WalkyLog;
  redact: Redactor;
  now(): number;
  /** COLLIE_WALKY=off: every message for this machine's panes is refused. */
  off: boolean;
}

/** A broadcast's id, kept in the record of each pane's message of it. */
const broadcastOf = (e: WalkyEnvelope) => (e.broadcast ? { broadcast: e.broadcast } : {});

export class CrewHost implements CrewWalkyHost {
  constructor(
    private readonly s: WalkyService,
    private readonly d: CrewHostDeps,
  ) {}

  /** On a lead: a member's message, its origin signature checked by the relay. */
  async fromMember(e: WalkyEnvelope, sig: string, cert: string): Promise<WalkyMessage> {
    const known = this.s.known(e.id);
    if (known) return known;
    const draft: WalkyMessage = { v: 1, id: e.id, at: e.at, from: { ...e.from, member: e.origin }, to: null, asked: e.to.slice(0, 200), replyTo: e.replyTo, body: '', state: 'refused', reason: null, verified: 'origin', read: false, updatedAt: this.d.now(), ...broadcastOf(e) };
    if (isStale(e.at, this.d.now())) return this.s.refused(draft, REFUSAL.stale);
    const found = this.s.resolve(e.to);
    if (found.lead) return this.s.refused(draft, REFUSAL.noPane);
    if (found.refused !== undefined) return this.s.refused(draft, found.refused);
    const m = { ...draft, to: this.s.target(found.pane, found.member) };
    if (found.member === e.origin && found.pane.id === `@${e.origin}/${e.from.paneId ?? ''}`) return this.s.refused(m, REFUSAL.ownPane);
    if (found.member !== undefined) return this.s.crewSend.toMember(m, e.body, 0, found.member, { envelope: e, sig, cert });
    if (this.d.off) return this.s.refused(m, REFUSAL.off);
    return this.s.accept(m, e.body, 0);
  }

  /** On a member: one message the lead passed on, with this machine's check of its signatures. */
  async fromLead(item: CrewWalkyItem, check: ItemCheck): Promise<WalkyMessage> {
    const e = item.envelope;
    const known = this.s.known(e.id);
    if (known) return known;
    // A reply to a message this machine's log holds from one of its own panes goes to that pane,
    // as the log has it (its token too), whatever pane the lead named.
    const orig = e.replyTo ? this.d.log.get(e.replyTo) : undefined;
    const logged = orig && !this.s.fromAfar(orig) && orig.from.paneId ? orig : undefined;
    const pane = this.s.hubPane(logged ? logged.from.paneId! : item.pane);
    const asked = parseAddress(e.to);
    const draft: WalkyMessage = {
      v: 1, id: e.id, at: e.at, from: { ...e.from, member: e.origin }, to: pane && !pane.member ? this.s.target(pane) : null, asked: e.to.slice(0, 200), replyTo: e.replyTo,
      body: '', state: 'refused', reason: null, verified: check.ok ? check.verified : 'none', read: false, updatedAt: this.d.now(), ...broadcastOf(e),
    };
    if (!check.ok) return this.s.refused(draft, check.reason);
    if (this.d.off) return this.s.refused(draft, REFUSAL.off);
    if (orig && !this.s.fromAfar(orig) && orig.from.kind === 'operator') return this.s.refused(draft, REFUSAL.operatorReply);
    const token = logged ? (logged.from.token ?? null) : asked?.kind === 'pane' ? asked.token : null;
    if (!pane || pane.member) return this.s.refused(draft, token ? REFUSAL.replaced : REFUSAL.noPane);
    if (token && pane.token !== token) return this.s.refused(draft, REFUSAL.replaced);
    return this.s.accept(draft, e.body, 0);
  }

  /** On a member: what its log holds to or from one of its panes, newest first, bodies masked (the lead's phone reads it). */
  read(pane: string): WalkyMessage[] {
    return this.d.log
      .all()
      .filter((m) => m.to?.paneId === pane || (m.from.paneId === pane && !this.s.fromAfar(m)))
      .reverse()
      .slice(0, 500)
      .map((m) => ({ ...m, body: this.d.redact(m.body) }));
  }

  /** On a lead: a member pane's messages from that member's own log, its pane ids as the lead knows them. */
  async readMember(paneId: string): Promise<WalkyMessage[] | null> {
    const at = /^@([a-z0-9][a-z0-9-]{0,31})\/(.+)$/.exec(paneId);
    const port = this.s.crewPort();
    if (!at || !port) return null;
    const [, member, pane] = at as unknown as [string, string, string];
    const list = await port.readMember(member, pane);
    const up = (id: string | undefined) => (id && !id.startsWith('@') ? `@${member}/${id}` : id);
    return list?.map((m) => ({
      ...m,
      to: m.to && m.to.member === undefined ? { ...m.to, paneId: up(m.to.paneId)!, member } : m.to,
      from: m.from.member === member && m.from.paneId ? { ...m.from, paneId: up(m.from.paneId)! } : m.from,
    })) ?? null;
  }

  /** On a lead: the panes a broadcast from member `from` reaches beyond that member's own, as this lead shows them. */
  targets(from: string, machine: string): CrewWalkyTargets {
    const r = this.s.reach(machine === 'all' ? undefined : machine, from);
    return {
      panes: [...r.panes.map((t) => ({ to: this.s.target(t.pane, t.member), refused: t.refused })), ...r.machines.map((w) => ({ to: wholeMachine(w.member), refused: w.refused }))],
      skipped: r.skipped.map((p) => ({ address: this.s.shown(p.address), label: p.label })),
    };
  }

  /**
   * The receipts of messages from other machines changed in the last `CREW_OUTCOME_KEEP_MS`:
   * the outbox that sends them lives in memory, so a bridge that starts again sends them anew
   * (a receipt taken twice changes nothing).
   */
  kept(): { to: string; outcome: CrewWalkyOutcome }[] {
    const self = this.s.crewSelf();
    if (!self) return [];
    const since = this.d.now() - CREW_OUTCOME_KEEP_MS;
    return this.d.log
      .all()
      .filter((m) => this.s.fromAfar(m) && m.updatedAt >= since)
      .map((m) => ({ to: self.role === 'member' ? self.lead : m.from.member!, outcome: { id: m.id, state: m.state, reason: m.reason, at: m.updatedAt } }));
  }

  /** Receipt changes another machine reports: taken for the messages it may speak of, all acked. */
  async outcomes(from: string, outs: CrewWalkyOutcome[]): Promise<string[]> {
    const self = this.s.crewSelf();
    for (const o of outs) {
      const m = this.d.log.get(o.id);
      if (!m || !self) continue;
      const may = self.role === 'lead' ? m.to?.member === from : from === self.lead && m.from.member === self.name;
      if (!may) continue;
      await this.s.crewSend.change(o.id, o.state, o.state === 'accepted' && self.role === 'member' ? CREW_REASON.onLead : o.reason);
    }
    return outs.map((o) => o.id);
  }
}
