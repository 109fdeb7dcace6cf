/**
 * Walky across the crew (docs/walky.md, "Across a crew"; docs/crew.md): the crew's side of it.
 * A member posts a message to its lead (`POST /crew/v1/walky/send`); the lead posts it on to the
 * member that owns the pane (`POST /crew/v1/walky/deliver`, 8 s per machine); the machine that
 * types it reports each receipt change to the lead, and the lead to the member that sent it
 * (`POST /crew/v1/walky/outcomes`), each kept and sent again until acked, for 10 minutes at
 * most. These are new routes on the crew listener; the member's stream is unchanged.
 */
import {
  CREW_REASON,
  CREW_WALKY_MACHINE_MS,
  CrewWalkyAck,
  CrewWalkyDeliver,
  CrewWalkyOutcomes,
  CrewWalkyRead,
  CrewWalkyReceipts,
  CrewWalkySend,
  CrewWalkyTargets,
  CrewWalkyTargetsAsk,
  REFUSAL,
  type CrewFile,
  type CrewWalkyOutcome,
  type WalkyEnvelope,
} from '@collie/protocol';
import type { CrewPort, CrewSelf, CrewWalkyHost } from '../walky/crew-port';
import { crewRequest, pemOfDer, type CrewReply } from './client';
import type { Identity } from './identity';
import { publicKeyFromText } from './identity';
import { CrewError, type Verified } from './listener';
import { checkItem, envelopeText, leadText, signText, verifyText } from './walky-sign';
import { Outbox } from './outcome-outbox';
import { parseBody as parse } from './parse-body';

export interface RelayDeps {
  crew(): CrewFile | null;
  id(): Identity | null;
  host(): CrewWalkyHost | null;
  /** On a lead: whether a member's stream is up, and the version it last said. */
  connected(name: string): boolean;
  version(name: string): string | null;
  /** This bridge's own version (what a lead-origin item carries nothing of; kept for the log). */
  log?: (line: string) => void;
  now?: () => number;
  /** Test knob: how long a lead gives a machine (8 s). */
  machineMs?: number;
}

/** Try a member's post to its lead this long in all, each try at most `TRY_MS`. */
const LEAD_TRIES_MS = 30_000;
const TRY_MS = 4_000;

export interface WalkyRelay {
  port: CrewPort;
  /** A signed request to `/crew/v1/walky/…` on this machine's crew listener. */
  route(method: string, path: string, body: string, who: Verified): Promise<unknown>;
  /** Outcomes not yet acked, per machine (tests, doctor). */
  pending(): Record<string, number>;
  /** Sends again the receipts walky kept of messages from other machines (at start: the outbox lives in memory). */
  resendKept(): void;
  /** On a lead: how many times a member posted message `id` (a retry after a lost answer counts again). */
  posts(id: string): number;
  stop(): void;
}

export function walkyRelay(d: RelayDeps): WalkyRelay {
  const now = d.now ?? Date.now;
  const boxes = new Map<string, Outbox>();
  const posted = new Map<string, number>();

  const self = (): CrewSelf | null => {
    const c = d.crew();
    if (!c) return null;
    return c.role === 'lead'
      ? { role: 'lead', prefix: c.crew, name: c.name, lead: c.name, leadVersion: '' }
      : { role: 'member', prefix: c.name, name: c.name, lead: c.lead.name, leadVersion: c.lead.version };
  };

  /** Where this machine posts to `name` (the lead, or one of the lead's members), with its pinned certificate. */
  const peer = (name: string): { listen: string; certPem: string } | null => {
    const c = d.crew();
    if (c?.role === 'member') return name === c.lead.name ? { listen: c.lead.listen, certPem: pemOfDer(c.lead.cert) } : null;
    const m = c?.role === 'lead' ? c.members.find((x) => x.name === name) : undefined;
    return m ? { listen: m.listen, certPem: pemOfDer(m.cert) } : null;
  };

  const post = async (name: string, path: string, body: unknown, timeoutMs: number): Promise<CrewReply> => {
    const at = peer(name);
    const id = d.id();
    if (!at || !id) throw new Error(`crew: no way to ${name}`);
    return crewRequest({ id, certPem: at.certPem, listen: at.listen, method: 'POST', path, body, timeoutMs, now: now() });
  };

  const errorCode = (r: CrewReply) => (r.json as { error?: { code?: string } } | null)?.error?.code ?? `HTTP ${r.status}`;

  const outbox = (name: string) => {
    let b = boxes.get(name);
    if (!b) {
      b = new Outbox(async (outcomes) => {
        const r = await post(name, '/crew/v1/walky/outcomes', { outcomes }, TRY_MS);
        if (r.status !== 200) throw new Error(`crew: ${name} answered ${errorCode(r)} to outcomes`);
        const ack = CrewWalkyAck.safeParse(r.json);
        if (!ack.success) throw new Error(`crew: ${name}'s ack does not parse`);
        return ack.data.acked;
      }, now);
      boxes.set(name, b);
    }
    return b;
  };

  const port: CrewPort = {
    me: self,
    member(name) {
      const c = d.crew();
      if (c?.role !== 'lead') return null;
      const m = c.members.find((x) => x.name === name);
      return m ? { reachable: d.connected(name), version: d.version(name) ?? m.version } : null;
    },
    members() {
      const c = d.crew();
      return c?.role === 'lead' ? c.members.map((m) => m.name) : [];
    },
    async toLead(e: WalkyEnvelope) {
      const id = d.id();
      const c = d.crew();
      if (!id || c?.role !== 'member') return { refused: REFUSAL.otherMember };
      const body = CrewWalkySend.parse({ envelope: e, sig: signText(envelopeText(e), id.privateKey) });
      // Sent again with the same id while no answer came: the lead answers a known id with its receipt and types nothing.
      const until = now() + LEAD_TRIES_MS;
      let last = '';
      for (let attempt = 0; now() < until; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(250 * 2 ** attempt, 2_000)));
        let r: CrewReply;
        try {
          r = await post(c.lead.name, '/crew/v1/walky/send', body, TRY_MS);
        } catch (err) {
          last = (err as Error).message;
          continue;
        }
        if (r.status === 200) {
          const parsed = CrewWalkyReceipts.safeParse(r.json);
          return parsed.success ? { messages: parsed.data.messages } : { unknown: CREW_REASON.leadGone };
        }
        const code = errorCode(r);
        // A lead without these routes is older than walky across a crew.
        if (code === 'not_found') return { refused: REFUSAL.olderLead };
        if (code === 'stale') return { refused: REFUSAL.stale };
        if (code === 'bad_signature') return { refused: REFUSAL.badSignature };
        if (code === 'removed' || code === 'unknown_key') return { refused: `${code.replace('_', ' ')}` };
        last = code;
      }
      d.log?.(`crew: walky ${e.id} did not reach the lead: ${last}`);
      return { unknown: CREW_REASON.leadGone };
    },
    async toMember(member, items) {
      const id = d.id();
      const c = d.crew();
      const m = c?.role === 'lead' ? c.members.find((x) => x.name === member) : undefined;
      if (!id || c?.role !== 'lead' || !m) return { refused: REFUSAL.noPane };
      const signed = items.map((it) => {
        const sig = it.sig ?? signText(envelopeText(it.envelope), id.privateKey);
        return { envelope: it.envelope, sig, ...(it.cert ? { cert: it.cert } : {}), pane: it.pane, lead_sig: signText(leadText(it.envelope, sig, it.cert, member, it.pane), id.privateKey) };
      });
      let r: CrewReply;
      try {
        r = await post(member, '/crew/v1/walky/deliver', CrewWalkyDeliver.parse({ items: signed }), d.machineMs ?? CREW_WALKY_MACHINE_MS);
      } catch (err) {
        const msg = (err as Error).message;
        // Nothing reached a member that refused the connection; one that went quiet may have it.
        return /ECONNREFUSED|EHOSTUNREACH|ENETUNREACH/.test(msg) ? { refused: REFUSAL.unreachable } : { unknown: CREW_REASON.slow };
      }
      if (r.status === 200) {
        const parsed = CrewWalkyReceipts.safeParse(r.json);
        return parsed.success ? { messages: parsed.data.messages } : { unknown: CREW_REASON.slow };
      }
      if (errorCode(r) === 'not_found') return { refused: REFUSAL.olderMember };
      return { refused: `${member} answered ${errorCode(r)}` };
    },
    async targets(machine) {
      const c = d.crew();
      if (c?.role !== 'member') return { refused: REFUSAL.otherMember };
      try {
        const r = await post(c.lead.name, '/crew/v1/walky/targets', CrewWalkyTargetsAsk.parse({ machine }), TRY_MS * 2);
        const parsed = r.status === 200 ? CrewWalkyTargets.safeParse(r.json) : null;
        if (parsed?.success) return parsed.data;
        d.log?.(`crew: the lead answered ${errorCode(r)} to a broadcast's targets`);
        // A lead without the route is older than member broadcasts.
        if (r.status === 404 || errorCode(r) === 'not_found') return { refused: REFUSAL.olderLead };
        return { refused: r.status === 200 ? REFUSAL.leadUnreachable : `${c.lead.name} answered ${errorCode(r)}` };
      } catch (err) {
        d.log?.(`crew: the lead did not answer a broadcast's targets: ${(err as Error).message}`);
        return { refused: REFUSAL.leadUnreachable };
      }
    },
    async readMember(member, pane) {
      if (!d.connected(member)) return null;
      try {
        const r = await post(member, '/crew/v1/walky/messages', { pane }, 10_000);
        const parsed = r.status === 200 ? CrewWalkyReceipts.safeParse(r.json) : null;
        return parsed?.success ? parsed.data.messages : null;
      } catch {
        return null;
      }
    },
    report(to, o) {
      outbox(to).add(o);
    },
  };

  const route = async (method: string, path: string, body: string, who: Verified): Promise<unknown> => {
    const host = d.host();
    const c = d.crew();
    const id = d.id();
    if (method !== 'POST' || !c || !id) throw new CrewError('not_found', `crew: no route ${method} ${path.slice(0, 100)}`);
    if (!host) throw new CrewError('internal', 'crew: walky talky is still starting; try again');
    if (path === '/crew/v1/walky/send') {
      if (c.role !== 'lead') throw new CrewError('not_lead', 'crew: walky messages go to the lead');
      const req = parse(CrewWalkySend, body, 'a walky send');
      const m = c.members.find((x) => x.name === who.name);
      if (!m) throw new CrewError('unknown_key', 'crew: unknown_key: no member has that key');
      if (req.envelope.origin !== who.name) throw new CrewError('bad_request', `crew: ${who.name} may not send as ${req.envelope.origin}`);
      // The origin's own signature, against the key pinned for it at join.
      if (!verifyText(envelopeText(req.envelope), req.sig, publicKeyFromText(m.key))) throw new CrewError('bad_signature', "crew: bad_signature: the message's signature does not match its sender's key");
      if (posted.size > 1000) posted.delete(posted.keys().next().value!);
      posted.set(req.envelope.id, (posted.get(req.envelope.id) ?? 0) + 1);
      return CrewWalkyReceipts.parse({ messages: [await host.fromMember(req.envelope, req.sig, m.cert)] });
    }
    if (path === '/crew/v1/walky/deliver') {
      if (c.role !== 'member') throw new CrewError('not_found', 'crew: only a member takes messages from the lead');
      const req = parse(CrewWalkyDeliver, body, 'a walky delivery');
      const lead = { name: c.lead.name, key: publicKeyFromText(c.lead.key) };
      const messages = [];
      for (const item of req.items) messages.push(await host.fromLead(item, checkItem(item, c.name, lead, now())));
      return CrewWalkyReceipts.parse({ messages });
    }
    if (path === '/crew/v1/walky/messages') {
      if (c.role !== 'member') throw new CrewError('not_found', 'crew: only a member answers for its panes');
      return CrewWalkyReceipts.parse({ messages: host.read(parse(CrewWalkyRead, body, 'a read of messages').pane) });
    }
    if (path === '/crew/v1/walky/targets') {
      if (c.role !== 'lead') throw new CrewError('not_lead', 'crew: a broadcast across the crew is the lead\'s to fan out');
      return CrewWalkyTargets.parse(host.targets(who.name, parse(CrewWalkyTargetsAsk, body, 'a broadcast\'s targets').machine));
    }
    if (path === '/crew/v1/walky/outcomes') {
      const req = parse(CrewWalkyOutcomes, body, 'walky outcomes');
      return CrewWalkyAck.parse({ acked: await host.outcomes(who.name, req.outcomes) });
    }
    throw new CrewError('not_found', `crew: no route ${method} ${path.slice(0, 100)}`);
  };

  return {
    port,
    route,
    pending: () => Object.fromEntries([...boxes].map(([k, b]) => [k, b.size()])),
    resendKept: () => {
      for (const { to, outcome } of d.host()?.kept() ?? []) outbox(to).add(outcome);
    },
    posts: (id) => posted.get(id) ?? 0,
    stop: () => {
      for (const b of boxes.values()) b.stop();
    },
  };
}
