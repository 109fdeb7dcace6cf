import { REFUSAL, type Pane, type WalkyAnswer, type WalkyMessage, type WalkyRequest, type WalkySender, type WalkyState, type WalkyTarget, type WhoRow } from '@collie/protocol';
import type { EventHub } from '../events/hub';
import type { Redactor } from '../redact';
import { bareAddress, parseAddress } from './address';
import { cleanBody, tooLong, typedText } from './body';
import type { Delivery } from './delivery';
import { errorAnswer } from './parse';
import { MAX_UNREAD_PER_PANE, type WalkyLog } from './walky-log';

/** `inbox --all` prints this many. */
export const INBOX_ALL = 50;

export interface ServiceDeps {
  hub: EventHub;
  log: WalkyLog;
  delivery: () => Delivery;
  /** COLLIE_WALKY=off: every message for this machine's panes is refused. */
  off: boolean;
  redact: Redactor;
  newId(): string;
  now(): number;
  /** How long `send` waits for a final receipt (15 s). */
  waitMs: number;
}

type Answer = Promise<WalkyAnswer>;

/** The walky verbs over proved callers, the log and the send protocol. */
export class WalkyService {
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(private readonly d: ServiceDeps) {}

  /** One request from a caller the socket proved: `me` is its pane (null outside any pane). */
  handle(req: WalkyRequest, me: Pane | null): Answer {
    switch (req.verb) {
      case 'who':
        return this.who(me);
      case 'send':
        return this.send(me, req.to, req.body, req.id);
      case 'reply':
        return this.reply(me, req.to_id, req.body, req.id);
      case 'inbox':
        return this.inbox(me, req.id, req.all ?? false, req.keep ?? false);
      case 'status':
        return this.status(req.id);
    }
  }

  /** A receipt change from the delivery: logged, published, and waiters woken. */
  settle(id: string, state: WalkyState, reason: string | null): void {
    const m = this.d.log.get(id);
    if (!m || (m.state === state && m.reason === reason)) return;
    void this.save({ ...m, state, reason, updatedAt: this.d.now() }).catch(() => undefined);
  }

  private async who(me: Pane | null): Answer {
    // A crew member's panes on a lead are not reached by walky until it crosses the crew (docs/crew.md).
    const panes: WhoRow[] = [...this.d.hub.panes.values()]
      .filter((p) => p.harness !== 'shell' && !p.member)
      .sort((a, b) => a.address.localeCompare(b.address, 'en', { numeric: true }))
      .map((p) => ({ address: p.address, machine: p.machine, harness: p.harness, label: p.label, state: p.state, you: p.id === me?.id }));
    return { ok: true, verb: 'who', machine: this.d.hub.machine, you: me?.address ?? null, panes };
  }

  private async send(me: Pane | null, to: string, body: string, asked?: string): Answer {
    const id = asked ?? this.d.newId();
    const known = this.known(id);
    if (known) return { ok: true, verb: 'send', message: known };
    const found = this.resolve(to);
    // The to line shows the pane as `who` lists it whenever the address names one.
    const draft = { ...this.draft(id, me, to, null), to: 'pane' in found ? target(found.pane) : null };
    if (!me || me.harness === 'shell') return this.refuse(draft, REFUSAL.notInPane);
    if (this.d.off) return this.refuse(draft, REFUSAL.off);
    if (found.refused !== undefined) return this.refuse(draft, found.refused);
    return this.deliver(draft, me, body);
  }

  /** The pane an address names now, or why it names none. */
  private resolve(to: string): { pane: Pane; refused?: undefined } | { refused: string } {
    const address = parseAddress(to);
    if (!address) return { refused: REFUSAL.badAddress };
    if (address.kind === 'all') return { refused: REFUSAL.broadcast };
    if (address.member !== 'local') return { refused: REFUSAL.otherMember };
    const pane = this.d.hub.panes.get(`${address.server}:${address.tmuxId}`);
    if (!pane) return { refused: address.token ? REFUSAL.replaced : REFUSAL.noPane };
    // A token that no longer matches: the pane that holds the id now is a stranger, not named.
    if (address.token && pane.token !== address.token) return { refused: REFUSAL.replaced };
    return { pane };
  }

  private async reply(me: Pane | null, toId: string, body: string, asked?: string): Answer {
    const orig = this.d.log.get(toId);
    if (!orig) return errorAnswer('unknown_id', `no message ${toId} on this machine`);
    const id = asked ?? this.d.newId();
    const known = this.known(id);
    if (known) return { ok: true, verb: 'send', message: known };
    // The reply goes to the pane the bridge logged as the sender, whatever any address says.
    const draft = this.draft(id, me, orig.from.address ?? 'operator', toId);
    if (!me || me.harness === 'shell') return this.refuse(draft, REFUSAL.notInPane);
    if (this.d.off) return this.refuse(draft, REFUSAL.off);
    if (orig.from.kind === 'operator' || !orig.from.paneId) return this.refuse(draft, REFUSAL.operatorReply);
    const pane = this.d.hub.panes.get(orig.from.paneId);
    if (!pane || pane.token !== orig.from.token) return this.refuse(draft, REFUSAL.replaced);
    return this.deliver({ ...draft, to: target(pane) }, me, body);
  }

  private async deliver(m: WalkyMessage, me: Pane, raw: string): Answer {
    if (m.to!.paneId === me.id) return this.refuse(m, REFUSAL.ownPane);
    return { ok: true, verb: 'send', message: await this.accept(m, raw, this.d.waitMs) };
  }

  /** Checks the body and the target, logs the message, hands it to the delivery, waits up to `waitMs`. */
  private async accept(m: WalkyMessage, raw: string, waitMs: number): Promise<WalkyMessage> {
    const to = m.to!;
    if (to.harness === 'shell') return this.refused(m, REFUSAL.shell);
    const body = cleanBody(raw);
    if (body === '') return this.refused(m, REFUSAL.empty);
    if (tooLong(body)) return this.refused(m, REFUSAL.tooLong);
    if (this.d.log.unread(to.paneId, to.token) >= MAX_UNREAD_PER_PANE) return this.refused(m, REFUSAL.inboxFull);
    const accepted: WalkyMessage = { ...m, body, state: 'accepted', reason: null };
    // On disk (log and seen.json) before anything is typed.
    await this.save(accepted);
    this.d.delivery().enqueue(to.paneId, m.id, typedText(accepted), accepted.at);
    return waitMs > 0 ? this.settled(m.id, waitMs) : accepted;
  }

  /**
   * The operator's message from the phone: no pane to prove, the device names the sender and
   * the answer does not wait (the phone follows `walky.updated`). A reply goes to the pane the
   * log holds for the message's sender, with its token, so a replaced pane is refused.
   */
  async operatorSend(device: string, to: { address: string } | { replyTo: string }, raw: string, asked?: string): Promise<WalkyMessage | { unknown: string }> {
    let address: string;
    let replyTo: string | null = null;
    if ('replyTo' in to) {
      const orig = this.d.log.get(to.replyTo);
      if (!orig) return { unknown: `no message ${to.replyTo} on this machine` };
      address = orig.from.address ?? 'operator';
      replyTo = orig.id;
    } else address = to.address;
    const id = asked ?? this.d.newId();
    const known = this.known(id);
    if (known) return known;
    const found = this.resolve(address);
    const draft: WalkyMessage = { ...this.draft(id, null, address, replyTo), from: { kind: 'operator', device }, to: 'pane' in found ? target(found.pane) : null };
    if (this.d.off) return this.refused(draft, REFUSAL.off);
    if (replyTo !== null && this.d.log.get(replyTo)?.from.kind === 'operator') return this.refused(draft, REFUSAL.operatorReply);
    if (found.refused !== undefined) return this.refused(draft, found.refused);
    return this.accept(draft, raw, 0);
  }

  /** The operator's message to every agent pane on this machine: one receipt per target. */
  async broadcast(device: string, raw: string): Promise<{ messages: WalkyMessage[]; skipped: Pane[] }> {
    const panes = [...this.d.hub.panes.values()].filter((p) => !p.member).sort((a, b) => a.address.localeCompare(b.address, 'en', { numeric: true }));
    const messages: WalkyMessage[] = [];
    for (const p of panes.filter((x) => x.harness !== 'shell')) {
      const m = await this.operatorSend(device, { address: p.address }, raw);
      if ('id' in m) messages.push(m);
    }
    return { messages, skipped: panes.filter((p) => p.harness === 'shell') };
  }

  private async inbox(me: Pane | null, id: string | undefined, all: boolean, keep: boolean): Answer {
    const reached = (m: WalkyMessage) => m.state !== 'refused' && m.to !== null;
    const mine = (m: WalkyMessage) => reached(m) && me !== null && m.to?.paneId === me.id && m.to.token === me.token;
    if (id !== undefined) {
      const m = this.d.log.get(id);
      if (me && (!m || !mine(m))) return errorAnswer('unknown_id', `no message ${id} for this pane`);
      if (!m || !reached(m)) return errorAnswer('unknown_id', `no message ${id} on this machine`);
      return { ok: true, verb: 'inbox', messages: [me ? await this.markRead(m) : m] };
    }
    if (all) return { ok: true, verb: 'inbox', messages: this.d.log.all().filter(me ? mine : reached).slice(-INBOX_ALL) };
    if (!me) return errorAnswer('not_in_pane', 'run this inside a pane, or list every message with collie walky inbox --all');
    const unread = this.d.log.all().filter((m) => mine(m) && !m.read);
    return { ok: true, verb: 'inbox', messages: keep ? unread : await Promise.all(unread.map((m) => this.markRead(m))) };
  }

  private async status(id: string): Answer {
    const m = this.known(id);
    return m ? { ok: true, verb: 'status', message: m } : errorAnswer('unknown_id', `no record of ${id} on this machine`);
  }

  /** A message id seen before: its record, or what seen.json kept of it after the log dropped it. */
  private known(id: string): WalkyMessage | undefined {
    const m = this.d.log.get(id);
    if (m) return m;
    const seen = this.d.log.seenEntry(id);
    if (!seen) return undefined;
    return { v: 1, id, at: seen.at, from: { kind: 'agent' }, to: null, asked: seen.pane ?? '', replyTo: null, body: '', state: seen.state, reason: seen.reason, verified: 'local', read: true, updatedAt: seen.at };
  }

  private draft(id: string, me: Pane | null, asked: string, replyTo: string | null): WalkyMessage {
    const t = this.d.now();
    const from: WalkySender = me
      ? { kind: 'agent', address: me.address, paneId: me.id, token: me.token, harness: me.harness, label: me.label }
      : { kind: 'agent' };
    return { v: 1, id, at: t, from, to: null, asked: asked.slice(0, 200), replyTo, body: '', state: 'refused', reason: null, verified: 'local', read: false, updatedAt: t };
  }

  private async refuse(m: WalkyMessage, reason: string): Answer {
    return { ok: true, verb: 'send', message: await this.refused(m, reason) };
  }

  /** Refused: logged without a body, counted under its reason. */
  private async refused(m: WalkyMessage, reason: string): Promise<WalkyMessage> {
    const refused: WalkyMessage = { ...m, body: '', state: 'refused', reason };
    await Promise.all([this.save(refused), this.d.log.refused(reason)]);
    return refused;
  }

  private async markRead(m: WalkyMessage): Promise<WalkyMessage> {
    if (m.read) return m;
    const read = { ...m, read: true, updatedAt: this.d.now() };
    await this.save(read);
    return read;
  }

  private async save(m: WalkyMessage): Promise<void> {
    await this.d.log.put(m);
    this.d.hub.publish({ type: 'walky.updated', message: { ...m, body: this.d.redact(m.body) } });
    for (const wake of this.waiters.get(m.id) ?? []) wake();
  }

  /** The message once its receipt is final (not `accepted`), or as it stands after `ms`. */
  private settled(id: string, ms: number): Promise<WalkyMessage> {
    return new Promise((resolve) => {
      const check = () => {
        const m = this.d.log.get(id)!;
        if (m.state === 'accepted' && !timedOut) return;
        clearTimeout(timer);
        set.delete(check);
        if (set.size === 0) this.waiters.delete(id);
        resolve(m);
      };
      let timedOut = false;
      const set = this.waiters.get(id) ?? new Set();
      this.waiters.set(id, set);
      set.add(check);
      const timer = setTimeout(() => {
        timedOut = true;
        check();
      }, ms);
      check();
    });
  }
}

function target(p: Pane): WalkyTarget {
  return { paneId: p.id, pane: bareAddress(p.address), address: p.address, token: p.token, harness: p.harness, label: p.label };
}
