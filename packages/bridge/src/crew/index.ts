/**
 * The crew in a running bridge: it reads `<state>/crew/`, runs the crew listener on the
 * address named there, and, on a lead, merges its members' streams into the hub; on a member,
 * keeps its one stream to the lead. It follows the files as the CLI changes them (fs.watch).
 */
import { X509Certificate } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { JoinAnswer, JoinRequest, type CrewFile, type CrewView, type SendReceipt } from '@collie/protocol';
import { appendAudit, ensureStateDir } from '../config';
import type { EventHub } from '../events/hub';
import { loadIdentity, publicKeyFromText, type Identity } from './identity';
import { pemOfDer } from './client';
import { decideJoin, keyIdOfText, leadStanding, memberStanding, type LeadFile } from './lead-core';
import { LeadLink, splitPaneId } from './lead-link';
import { CrewError, startCrewListener, type CrewListener } from './listener';
import { MemberLink, type LinkState, type MemberSends } from './member-link';
import type { MemberPhone } from './member-calls';
import { leadPhone, type LeadPhone } from './lead-phone';
import type { Redactor } from '../redact';
import { memberVersions, serveAskSocket } from './ask-socket';
import { verifyRequest } from './sign';
import { walkyRelay } from './walky-relay';
import { parseBody } from './parse-body';
import type { CrewPort, CrewWalkyHost } from '../walky/crew-port';
import { crewFiles, readCrew, readInvites, readSeen, withCrewLock, writeCrew, writeInvites, writeSeen, writeStatus } from './store';

export { splitPaneId } from './lead-link';

const AUDITED = new Set(['bad_signature', 'unbound', 'misdirected', 'replay']);

export interface CrewOptions {
  stateDir: string;
  hub: EventHub;
  sends: MemberSends;
  version: string;
  machine: string;
  run: string;
  /** The lead's masking, applied to everything members send up. */
  redact: Redactor;
  /** What a member lends its lead's phone beyond sends (box, cancel, Chat, screens, durable agents). */
  phone?: Omit<MemberPhone, 'version'>;
  log?: (line: string) => void;
  /** Walky's side of messages across the crew (walky/service.ts), once walky has started. */
  walky?: () => CrewWalkyHost | null;
  /** On a member: its stream to the lead came up or went down. */
  onLink?: (connected: boolean) => void;
  /** Test knobs: reconnect back-off, the member's signing clock, the lead's 8 s per machine. */
  backoff?: { first: number; max: number };
  now?: () => number;
  walkyMachineMs?: number;
}

export interface Crew {
  /** True for a member's pane on this lead (`@<member>/…`). */
  owns(paneId: string): boolean;
  send(paneId: string, text: string, requestId: string): Promise<SendReceipt>;
  keys(paneId: string, keys: Parameters<MemberSends['keys']>[1], requestId: string): Promise<SendReceipt>;
  answer(paneId: string, req: Parameters<MemberSends['answer']>[1]): Promise<SendReceipt>;
  /** On a lead: box actions, cancels, Chat, screens and durable agents of members' panes and agents. */
  readonly phone: LeadPhone;
  /** On a lead: the members connected now. */
  connected(): string[];
  /** On a member: its stream to the lead (connected, why the lead last refused it); else null. */
  link(): LinkState | null;
  /** The crew for the phone: its machines, who is reachable now. */
  view(): CrewView;
  /** Walky across the crew, as walky uses it (crew/walky-relay.ts). */
  walky: CrewPort;
  /** Walky outcomes not yet acked, per machine. */
  walkyPending(): Record<string, number>;
  /** Sends again the walky receipts owed to other machines (once walky sees this crew, at start). */
  walkyResend(): void;
  /** On a lead: how many times a member posted message `id`. */
  walkyPosts(id: string): number;
  /** Re-read the files now (the watcher does it too). */
  reload(): Promise<void>;
  stop(): Promise<void>;
}

export async function startCrew(o: CrewOptions): Promise<Crew> {
  const files = crewFiles(o.stateDir);
  await ensureStateDir(files.dir);
  const replay = await readSeen(o.stateDir);
  // The CLI's `collie crew update --all` asks the members through this running lead.
  const ask = await serveAskSocket(o.stateDir, () => memberVersions(crew?.role === 'lead' ? crew.members : [], (n) => lead.connected(n), phone)).catch((err: Error) => {
    o.log?.(`crew: cannot serve ${files.dir}/ask.sock: ${err.message}; collie crew update --all reads the versions last seen`);
    return null;
  });
  let crew: CrewFile | null = null;
  let id: Identity | null = null;
  let listener: CrewListener | null = null;
  let listening = '';
  let member: MemberLink | null = null;
  let memberKey = '';
  const status = new Map<string, { connected: boolean; lastSeen: number | null; version: string | null }>();
  let saveSeen: Promise<void> = Promise.resolve();
  const saveStatus = () => void writeStatus(o.stateDir, { version: 1, run: o.run, members: Object.fromEntries(status) }).catch(() => undefined);

  const lead = new LeadLink(o.hub, {
    onStatus: (name, connected, version) => {
      status.set(name, { connected, lastSeen: Date.now(), version });
      saveStatus();
    },
  }, o.redact);
  const phone = leadPhone(lead.calls, (name) => lead.connected(name), o.redact, (lines, width) => o.redact.lines(lines, { width }));

  const join = async (body: string, header: string | undefined): Promise<unknown> => {
    if (crew?.role !== 'lead') throw new CrewError('not_lead', 'crew: this machine does not lead a crew');
    const req = parseBody(JoinRequest, body, 'the join');
    const keyId = keyIdOfText(req.member.key);
    // The join is signed by the key it presents: proof the joiner holds it.
    const v = verifyRequest({ method: 'POST', path: '/crew/v1/join', body, header }, (k) => (k === keyId ? { status: 'member', key: publicKeyFromText(req.member.key), name: req.member.name } : null), replay, Date.now(), { keyId: id!.keyId, unbound: true });
    if (!v.ok) throw new CrewError(v.refusal, v.message);
    return withCrewLock(o.stateDir, async () => {
      const now = Date.now();
      const current = await readCrew(o.stateDir);
      if (current?.role !== 'lead') throw new CrewError('not_lead', 'crew: this machine no longer leads a crew');
      const d = decideJoin(current, await readInvites(o.stateDir), req, now);
      if (!d.ok) throw new CrewError(d.code, d.message);
      await writeInvites(o.stateDir, d.invites);
      await writeCrew(o.stateDir, d.crew);
      crew = d.crew;
      o.log?.(`crew: ${d.name} joined ${d.crew.crew}`);
      return JoinAnswer.parse({ crew: d.crew.crew, member: { name: d.name }, lead: { name: d.crew.name, key: id!.publicKeyText, fingerprint: id!.fingerprint, listen: d.crew.listen, version: o.version, cert: new X509Certificate(id!.certPem).raw.toString('base64url') } });
    });
  };

  const relay = walkyRelay({
    crew: () => crew,
    id: () => id,
    host: () => o.walky?.() ?? null,
    connected: (name) => lead.connected(name),
    version: (name) => status.get(name)?.version ?? null,
    ...(o.log ? { log: o.log } : {}),
    ...(o.now ? { now: o.now } : {}),
    ...(o.walkyMachineMs ? { machineMs: o.walkyMachineMs } : {}),
  });

  const signed = async (method: string, path: string, body: string, who: { name: string; keyId: string }): Promise<unknown> => {
    if (!crew) throw new CrewError('not_found', 'crew: this machine is in no crew');
    if (path.startsWith('/crew/v1/walky/')) return relay.route(method, path, body, who);
    if (method === 'GET' && path === '/crew/v1/hello') return { crew: crew.crew, name: crew.name, role: crew.role, version: o.version };
    if (method === 'POST' && path === '/crew/v1/leave' && crew.role === 'lead') {
      await withCrewLock(o.stateDir, async () => {
        const cur = await readCrew(o.stateDir);
        if (cur?.role === 'lead') await writeCrew(o.stateDir, { ...cur, members: cur.members.filter((m) => keyIdOfText(m.key) !== who.keyId) });
      });
      lead.forget(who.name);
      status.delete(who.name);
      saveStatus();
      return { left: who.name };
    }
    throw new CrewError('not_found', `crew: no route ${method} ${path.slice(0, 100)}`);
  };

  const apply = async (next: CrewFile | null) => {
    const prev = crew;
    crew = next;
    if (next && !id) id = await loadIdentity(o.stateDir, next.name);
    // The listener follows the address in the file.
    const want = next?.listen ?? '';
    if (want !== listening) {
      await listener?.close();
      listener = null;
      listening = '';
      if (next && id) {
        try {
          listener = await startCrewListener(want, id, {
            standing: (k) => (crew?.role === 'lead' ? leadStanding(crew, k) : crew?.role === 'member' ? memberStanding(crew, k) : null),
            replay,
            receiver: () => ({ keyId: id!.keyId, unbound: crew?.role === 'lead' }),
            onRefused: (r) => {
              // The refusals that say someone tried a request not theirs to make; a stale clock or a removed key is not audited.
              if (AUDITED.has(r.code)) void appendAudit(o.stateDir, { action: 'crew.refused', code: r.code, path: r.path, from: r.from }).catch(() => undefined);
            },
            onAccepted: () => {
              saveSeen = saveSeen.then(() => writeSeen(o.stateDir, replay)).catch(() => undefined);
            },
            signed,
            join,
            wantsStream: () => crew?.role === 'lead',
            stream: (who, ws) => {
              if (crew?.role !== 'lead') return false;
              lead.attach(who.name, ws);
              return true;
            },
            now: () => Date.now(),
          });
          listening = want;
        } catch (err) {
          o.log?.((err as Error).message);
        }
      }
    }
    // Members the lead removed: their streams close and their panes go.
    if (prev?.role === 'lead') {
      const still = new Set(next?.role === 'lead' ? next.members.map((m) => m.name) : []);
      for (const m of (prev as LeadFile).members) if (!still.has(m.name)) {
        lead.forget(m.name);
        status.delete(m.name);
      }
      saveStatus();
    }
    // A member keeps one stream to its lead.
    const key = next?.role === 'member' ? `${next.name}|${next.lead.listen}|${next.lead.fingerprint}` : '';
    if (key !== memberKey) {
      member?.stop();
      member = null;
      memberKey = key;
      if (next?.role === 'member' && id) {
        member = new MemberLink({ id, name: next.name, version: o.version, lead: { listen: next.lead.listen, certPem: pemOfDer(next.lead.cert) }, hub: o.hub, sends: o.sends, ...(o.backoff ? { backoff: o.backoff } : {}), ...(o.log ? { log: o.log } : {}), ...(o.now ? { now: o.now } : {}), ...(o.phone ? { phone: { ...o.phone, version: o.version } } : {}), ...(o.onLink ? { onLink: o.onLink } : {}) });
        member.start();
      }
    }
  };

  let reloading: Promise<void> = Promise.resolve();
  const reload = () =>
    (reloading = reloading.then(async () => {
      let next: CrewFile | null = null;
      try {
        next = await readCrew(o.stateDir);
      } catch (err) {
        o.log?.((err as Error).message);
        return;
      }
      if (JSON.stringify(next) !== JSON.stringify(crew)) await apply(next);
    }));
  await reload();
  let watcher: FSWatcher | null = null;
  let debounce: NodeJS.Timeout | null = null;
  try {
    watcher = watch(files.dir, (_e, file) => {
      if (file !== 'crew.json') return;
      if (debounce) clearTimeout(debounce);
      debounce = setTimeout(() => void reload(), 50);
    });
  } catch (err) {
    o.log?.(`crew: cannot watch ${files.dir}: ${(err as Error).message}; run collie restart after crew changes`);
  }

  return {
    owns: (paneId) => splitPaneId(paneId) !== null,
    send: (paneId, text, requestId) => lead.request(paneId, 'send', { text, request_id: requestId }),
    keys: (paneId, keys, requestId) => lead.request(paneId, 'keys', { keys: [...keys], request_id: requestId }),
    answer: (paneId, req) => lead.request(paneId, 'answer', req),
    phone,
    connected: () => (crew?.role === 'lead' ? crew.members.map((m) => m.name).filter((n) => lead.connected(n)) : []),
    link: () => (member ? { ...member.state } : null),
    view: (): CrewView => {
      const c = crew;
      if (!c) return { crew: null };
      const now = Date.now();
      if (c.role === 'lead') {
        return {
          crew: c.crew,
          role: 'lead',
          machines: [
            { name: c.name, role: 'lead', version: o.version, reachable: true, lastSeen: now, listen: c.listen, you: true },
            ...c.members.map((m) => {
              const s = status.get(m.name);
              const on = lead.connected(m.name);
              return { name: m.name, role: 'member' as const, version: s?.version ?? m.version, reachable: on, lastSeen: on ? now : (s?.lastSeen ?? null), listen: m.listen, you: false };
            }),
          ],
        };
      }
      const on = member?.state.connected ?? false;
      return {
        crew: c.crew,
        role: 'member',
        machines: [
          { name: c.lead.name, role: 'lead', version: c.lead.version, reachable: on, lastSeen: on ? now : null, listen: c.lead.listen, you: false },
          { name: c.name, role: 'member', version: o.version, reachable: true, lastSeen: now, listen: c.listen, you: true },
        ],
      };
    },
    walky: relay.port,
    walkyPending: () => relay.pending(),
    walkyResend: () => relay.resendKept(),
    walkyPosts: (id) => relay.posts(id),
    reload,
    stop: async () => {
      relay.stop();
      watcher?.close();
      if (debounce) clearTimeout(debounce);
      member?.stop();
      lead.stop();
      await ask?.close();
      await listener?.close();
      await saveSeen;
    },
  };
}
