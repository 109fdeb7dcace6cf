import { REFUSAL, type Pane, type WalkyAnswer, type WalkyMessage, type WalkyRequest, type WalkySender, type WalkyState, type WalkyTarget } from '@collie/protocol';
import { bareAddress, parseAddress } from './address';
import { resolveAddress, type Found } from './resolve';
import { cleanBody, tooLong, typedText } from './body';
import type { CrewPort, CrewSelf } from './crew-port';
import { Broadcaster } from './broadcast';
import { CrewSend } from './crew-send';
import { errorAnswer } from './parse';
import { ReceiptWaiters } from './receipt-waiters';
import { inboxAnswer, knownMessage, statusAnswer, whoAnswer } from './read-verbs';
import type { BroadcastHost, CrewSendHost, ServiceDeps } from './service-deps';
import { UntilWritten } from '../config/until-written';
import { MAX_UNREAD_PER_PANE } from './walky-log';

export type { ServiceDeps } from './service-deps';

export type { Found } from './resolve';

type Answer = Promise<WalkyAnswer>;

/**
 * The walky verbs over proved callers, the log and the send protocol. The methods that are not
 * private are what the crew's side (`crew-host.ts`, `crew-send.ts`) and broadcasts
 * (`broadcast.ts`) run their messages through.
 */
export class WalkyService implements BroadcastHost, CrewSendHost {
  private readonly waiters: ReceiptWaiters;
  private readonly untilWritten = new UntilWritten<WalkyMessage>((m) => this.save(m), (m) => m.id, (id) => this.d.log.get(id));

  private readonly broadcasts: Broadcaster;

  /** Messages to and from other machines of the crew (`crew-send.ts`). */
  readonly crewSend: CrewSend;

  constructor(readonly d: ServiceDeps) {
    this.waiters = new ReceiptWaiters((id) => this.d.log.get(id));
    this.broadcasts = new Broadcaster(this);
    this.crewSend = new CrewSend(this);
  }

  /** One request from a caller the socket proved: `me` is its pane (null outside any pane). */
  handle(req: WalkyRequest, me: Pane | null): Answer {
    // A send waits for its receipt the bridge's own wait, or less if the caller waits less.
    const wait = Math.min(this.d.waitMs, ('wait_ms' in req ? req.wait_ms : undefined) ?? Infinity);
    switch (req.verb) {
      case 'who':
        return whoAnswer(this, me);
      case 'send':
        return this.send(me, req.to, req.body, req.id, wait);
      case 'reply':
        return this.reply(me, req.to_id, req.body, req.id, wait);
      case 'inbox':
        return inboxAnswer(this, me, req.id, req.all ?? false, req.keep ?? false);
      case 'status':
        return this.status(req.id);
    }
  }

  /** A receipt change from the delivery: logged (`keep`), published, and waiters woken. */
  settle(id: string, state: WalkyState, reason: string | null): void {
    const m = this.d.log.get(id);
    if (!m || (m.state === state && m.reason === reason)) return;
    this.keep({ ...m, state, reason, updatedAt: this.d.now() }).catch(() => undefined);
  }

  /** `save`, and tried again until written when the write fails (`config/until-written.ts`). */
  keep(m: WalkyMessage): Promise<void> {
    return this.untilWritten.keep(m);
  }

  /** Stops trying the changes not yet written (the bridge stops; its log closes). */
  stop(): void {
    this.untilWritten.stop();
  }

  crewSelf(): CrewSelf | null {
    return this.d.crew?.()?.me() ?? null;
  }

  crewPort(): CrewPort | null {
    return this.d.crew?.() ?? null;
  }

  hubPane(id: string): Pane | undefined {
    return this.d.hub.panes.get(id);
  }

  /** A pane's address as `who` prints it: `local/` becomes the crew id on a lead, the name on a member. */
  shown(address: string): string {
    const self = this.crewSelf();
    return self && address.startsWith('local/') ? `${self.prefix}/${address.slice(6)}` : address;
  }

  private async send(me: Pane | null, to: string, body: string, asked: string | undefined, waitMs: number): Answer {
    const id = asked ?? this.d.newId();
    const known = this.known(id);
    if (known) return { ok: true, verb: 'send', message: known };
    const found = this.resolve(to);
    // The to line shows the pane as `who` lists it whenever the address names one.
    const draft = { ...this.draft(id, me, to, null), to: found.pane ? this.target(found.pane, found.member) : null };
    if (!me || me.harness === 'shell') return this.refuse(draft, REFUSAL.notInPane);
    // Off refuses messages for this machine's panes; a message for another machine still goes.
    if (this.d.off && this.here(found)) return this.refuse(draft, REFUSAL.off);
    if (found.refused !== undefined) return this.refuse(draft, found.refused);
    return this.deliver(draft, me, body, found, waitMs);
  }

  /** The pane an address names now, or why it names none (`resolve.ts`). */
  resolve(to: string): Found {
    return resolveAddress(to, this.crewSelf(), this.crewPort(), this.d.hub.panes);
  }

  private async reply(me: Pane | null, toId: string, body: string, asked: string | undefined, waitMs: number): Answer {
    const orig = this.d.log.get(toId);
    if (!orig) return errorAnswer('unknown_id', `no message ${toId} on this machine`);
    const id = asked ?? this.d.newId();
    const known = this.known(id);
    if (known) return { ok: true, verb: 'send', message: known };
    // The reply goes to the pane the bridge logged as the sender, whatever any address says.
    const draft = this.draft(id, me, orig.from.address ?? 'operator', toId);
    if (!me || me.harness === 'shell') return this.refuse(draft, REFUSAL.notInPane);
    if (this.d.off && !this.fromAfar(orig)) return this.refuse(draft, REFUSAL.off);
    if (orig.from.kind === 'operator' || !orig.from.paneId) return this.refuse(draft, REFUSAL.operatorReply);
    // From another machine of the crew: its logged address (with the token) through the lead.
    if (this.fromAfar(orig)) {
      const found = this.resolve(orig.from.address ?? '');
      if (found.refused !== undefined) return this.refuse(draft, found.refused);
      return this.deliver({ ...draft, to: found.pane ? this.target(found.pane, found.member) : null }, me, body, found, waitMs);
    }
    const pane = this.d.hub.panes.get(orig.from.paneId);
    if (!pane || pane.token !== orig.from.token) return this.refuse(draft, REFUSAL.replaced);
    return this.deliver({ ...draft, to: this.target(pane) }, me, body, { pane }, waitMs);
  }

  /** Whether an address leads to this machine's own panes (what COLLIE_WALKY=off refuses), not to another machine. */
  private here(found: Found): boolean {
    return !found.lead && found.member === undefined;
  }

  /**
   * On a lead: whether `address` names a member's pane. A reply from the phone to a message only
   * that member's log holds goes there by the address; the member's log then finds the pane.
   */
  private onMember(address: string): boolean {
    const a = parseAddress(address);
    const self = this.crewSelf();
    return self?.role === 'lead' && a?.kind === 'pane' && a.member !== 'local' && a.member !== self.prefix && this.crewPort()?.member(a.member) != null;
  }

  /** A message whose sender is on another machine of the crew. */
  fromAfar(m: WalkyMessage): boolean {
    const self = this.crewSelf();
    return self !== null && m.from.member !== undefined && m.from.member !== self.name;
  }

  private async deliver(m: WalkyMessage, me: Pane, raw: string, found: Found, waitMs: number): Answer {
    if (m.to?.paneId === me.id) return this.refuse(m, REFUSAL.ownPane);
    return { ok: true, verb: 'send', message: await this.route(m, raw, waitMs, found) };
  }

  /** A message with its pane found: typed here, passed to a member, or posted to the lead. */
  private route(m: WalkyMessage, raw: string, waitMs: number, found: Found): Promise<WalkyMessage> {
    if (found.lead) return this.crewSend.viaLead(m, raw, waitMs);
    if (found.member !== undefined) return this.crewSend.toMember(m, raw, waitMs, found.member);
    return this.accept(m, raw, waitMs);
  }

  /** The body as it will travel, or why it may not. */
  checkBody(raw: string): { body: string } | { refused: string } {
    const body = cleanBody(raw);
    if (body === '') return { refused: REFUSAL.empty };
    if (tooLong(body)) return { refused: REFUSAL.tooLong };
    return { body };
  }

  /** Checks the body and the target, logs the message, hands it to the delivery, waits up to `waitMs`. */
  async accept(m: WalkyMessage, raw: string, waitMs: number): Promise<WalkyMessage> {
    const to = m.to!;
    if (to.harness === 'shell') return this.refused(m, REFUSAL.shell);
    const checked = this.checkBody(raw);
    if ('refused' in checked) return this.refused(m, checked.refused);
    const body = checked.body;
    if (this.d.log.unread(to.paneId, to.token) >= MAX_UNREAD_PER_PANE) return this.refused(m, REFUSAL.inboxFull);
    const accepted: WalkyMessage = { ...m, body, state: 'accepted', reason: null };
    // On disk (log and seen.json) before anything is typed.
    const unsaved = await this.saveFirst(accepted);
    if (unsaved) return unsaved;
    this.d.delivery().enqueue(to.paneId, m.id, typedText(accepted), accepted.at);
    return waitMs > 0 ? this.settled(m.id, waitMs) : accepted;
  }

  /**
   * The operator's message from the phone: no pane to prove, the device names the sender and
   * the answer does not wait (the phone follows `walky.updated`). A reply goes to the pane the
   * log holds for the message's sender, with its token, so a replaced pane is refused.
   */
  async operatorSend(device: string, to: { address: string } | { replyTo: string; address?: string }, raw: string, asked?: string, broadcast?: string): Promise<WalkyMessage | { unknown: string }> {
    let address: string;
    let replyTo: string | null = null;
    if ('replyTo' in to) {
      const orig = this.d.log.get(to.replyTo);
      if (orig) address = orig.from.address ?? 'operator';
      else if (to.address !== undefined && this.onMember(to.address)) address = to.address;
      else return { unknown: `no message ${to.replyTo} on this machine` };
      replyTo = to.replyTo;
    } else address = to.address;
    const id = asked ?? this.d.newId();
    const known = this.known(id);
    if (known) return known;
    const found = this.resolve(address);
    const self = this.crewSelf();
    const draft: WalkyMessage = { ...this.draft(id, null, address, replyTo), from: { kind: 'operator', device, ...(self ? { member: self.name } : {}) }, to: found.pane ? this.target(found.pane, found.member) : null, ...(broadcast ? { broadcast } : {}) };
    if (this.d.off && this.here(found)) return this.refused(draft, REFUSAL.off);
    if (replyTo !== null && this.d.log.get(replyTo)?.from.kind === 'operator') return this.refused(draft, REFUSAL.operatorReply);
    if (found.refused !== undefined) return this.refused(draft, found.refused);
    return this.route(draft, raw, 0, found);
  }

  /** The panes a broadcast to `machine` reaches from here (`broadcast.ts`). */
  reach(machine: string | undefined, except?: string) {
    return this.broadcasts.reach(machine, except);
  }

  /** The operator's message to every agent pane (`broadcast.ts`). */
  broadcast(device: string, raw: string, machine?: string) {
    return this.broadcasts.broadcast(device, raw, machine);
  }

  /** The names a broadcast's `member` may take here (`broadcast.ts`). */
  machines(): string[] {
    return this.broadcasts.machines();
  }

  /** `status <id>`: one message's receipt, or a broadcast's lines (the CLI and the phone). */
  status(id: string): Answer {
    return statusAnswer(this, id);
  }

  /** A message id seen before: its record, or what seen.json kept of it after the log dropped it. */
  known(id: string): WalkyMessage | undefined {
    return knownMessage(this.d.log, id);
  }

  draft(id: string, me: Pane | null, asked: string, replyTo: string | null): WalkyMessage {
    const t = this.d.now();
    const self = this.crewSelf();
    const from: WalkySender = me
      ? { kind: 'agent', address: this.shown(me.address), paneId: me.id, token: me.token, harness: me.harness, label: me.label, ...(self ? { member: self.name } : {}) }
      : { kind: 'agent' };
    return { v: 1, id, at: t, from, to: null, asked: asked.slice(0, 200), replyTo, body: '', state: 'refused', reason: null, verified: 'local', read: false, updatedAt: t };
  }

  target(p: Pane, member?: string): WalkyTarget {
    const address = this.shown(p.address);
    return { paneId: p.id, pane: bareAddress(address), address, token: p.token, harness: p.harness, label: p.label, ...(member ? { member } : {}) };
  }

  private async refuse(m: WalkyMessage, reason: string): Answer {
    return { ok: true, verb: 'send', message: await this.refused(m, reason) };
  }

  /** Refused: logged without a body, counted under its reason. */
  async refused(m: WalkyMessage, reason: string): Promise<WalkyMessage> {
    const refused: WalkyMessage = { ...m, body: '', state: 'refused', reason };
    await Promise.all([this.save(refused), this.d.log.refused(reason)]);
    return refused;
  }

  async save(m: WalkyMessage): Promise<void> {
    await this.d.log.put(m);
    // A message from another machine: its receipt goes back with this machine's crew updates.
    const self = this.crewSelf();
    if (self && this.fromAfar(m)) this.d.crew?.()?.report(self.role === 'member' ? self.lead : m.from.member!, { id: m.id, state: m.state, reason: m.reason, at: m.updatedAt });
    this.d.hub.publish({ type: 'walky.updated', message: { ...m, body: this.d.redact(m.body) } });
    this.waiters.wake(m.id);
  }

  /**
   * A message's first write, before anything of it is typed or passed on: null once on disk.
   * When it fails (the state disk full) the message is not sent: it is refused as not saved,
   * and that refusal is kept until written, so its id never answers `accepted` again.
   */
  async saveFirst(m: WalkyMessage): Promise<WalkyMessage | null> {
    try {
      await this.save(m);
      return null;
    } catch {
      const refused: WalkyMessage = { ...m, body: '', state: 'refused', reason: REFUSAL.notSaved, updatedAt: this.d.now() };
      this.keep(refused).catch(() => undefined);
      this.d.log.refused(REFUSAL.notSaved).catch(() => undefined);
      return refused;
    }
  }

  /** The message once its receipt is final (not `accepted`), or as it stands after `ms`. */
  settled(id: string, ms: number): Promise<WalkyMessage> {
    return this.waiters.settled(id, ms);
  }
}
