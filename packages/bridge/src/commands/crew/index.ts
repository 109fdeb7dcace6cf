/**
 * `collie crew …` (docs/crew.md). Works on `<state>/crew/` directly; the running bridge
 * follows the files. `join` and `list` talk to the other machines' crew listeners.
 * Exit codes: 0 done, 1 could not reach, 2 usage, 3 not in a crew / no such member, 4 refused.
 */
import { X509Certificate, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { CrewErrorBody, CrewHello, CREW_WINDOW_MS, JoinAnswer, MemberName, parseListen, type CrewFile, type JoinRequest } from '@collie/protocol';
import { statePaths } from '../../config/state-paths';
import { crewRequest, pemOfDer } from '../../crew/client';
import { loadIdentity, readIdentity, type Identity } from '../../crew/identity';
import { decodeInvite, encodeInvite } from '../../crew/invite-token';
import { hashSecret, peerConsistent, removeMember, type LeadFile } from '../../crew/lead-core';
import { readCrew, readInvites, readStatus, withCrewLock, writeCrew, writeInvites } from '../../crew/store';
import { fetchPinnedCertificate } from '../../crew/tls';
import { qrCode } from '../qr';
import { version } from '../paths';
import { parseCrewArgs, USAGE, type CrewArgs } from './args';
import { CrewAdminError, createInvite, removeFromCrew } from '../../crew/admin';
import { askVersions, updateAdvice } from './update';

export { parseCrewArgs, USAGE } from './args';

export interface CrewPrinted {
  out: string;
  err: string;
  code: number;
}

class Stop extends Error {
  constructor(
    readonly exit: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface CrewIo {
  env: NodeJS.ProcessEnv;
  tty: boolean;
  now?: () => number;
  /** The version this lead runs (tests set another). */
  version?: string;
}

const defaultName = () => {
  const n = hostname().toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+/, '').slice(0, 32) || 'machine';
  return MemberName.safeParse(n).success ? n : `m-${n}`.slice(0, 32);
};

const certText = (id: Identity) => new X509Certificate(id.certPem).raw.toString('base64url');

async function inCrew(stateDir: string): Promise<CrewFile> {
  const c = await readCrew(stateDir);
  if (!c) throw new Stop(3, 'no_crew', 'this machine is in no crew (collie crew create, or collie crew join <token>)');
  return c;
}
async function leading(stateDir: string): Promise<LeadFile> {
  const c = await inCrew(stateDir);
  if (c.role !== 'lead') throw new Stop(4, 'not_lead', `this machine is a member of ${c.crew}; run this on its lead, ${c.lead.name} (${c.lead.listen})`);
  return c;
}

const ago = (t: number | null | undefined, now: number) => (t == null ? 'never' : now - t < 60_000 ? 'now' : now - t < 3_600_000 ? `${Math.round((now - t) / 60_000)} min ago` : `${Math.round((now - t) / 3_600_000)} h ago`);
const table = (rows: string[][]) => {
  const w = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(w[i]!)).join('  ').trimEnd()).join('\n');
};

/** The shared crew actions (crew/admin.ts), their errors as the CLI's exit codes. */
async function admin<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (err) {
    if (err instanceof CrewAdminError) throw new Stop({ no_crew: 3, no_member: 3, not_lead: 4, no_identity: 1 }[err.code], err.code, err.message);
    throw err;
  }
}

async function run(a: CrewArgs, stateDir: string, io: CrewIo): Promise<{ text: string; json: unknown }> {
  const now = io.now?.() ?? Date.now();
  switch (a.verb) {
    case 'create': {
      const name = a.name ?? defaultName();
      return withCrewLock(stateDir, async () => {
        const have = await readCrew(stateDir);
        if (have) throw new Stop(4, 'in_crew', `this machine is already ${have.role === 'lead' ? 'the lead' : 'a member'} of ${have.crew}; collie crew leave first`);
        const id = await loadIdentity(stateDir, name);
        const crew = `collie-${[...randomBytes(6)].map((b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('')}`;
        await writeCrew(stateDir, { version: 1, role: 'lead', crew, name, listen: a.listen, created: now, members: [], removed: [] });
        return {
          text: `Crew ${crew} created. ${name} leads it; members reach it at ${a.listen}.\nNext: collie crew invite, then collie crew join <token> --listen <host:port> on each member.`,
          json: { crew, name, role: 'lead', listen: a.listen, fingerprint: id.fingerprint },
        };
      });
    }
    case 'invite': {
      const inv = await admin(() => createInvite(stateDir, now));
      const qr = a.qr && io.tty && !a.json ? `\n${await qrCode(inv.token)}` : '';
      return {
        text: `Invite for one machine, valid 10 minutes, once:\n  ${inv.token}\nOn the new member: collie crew join <token> --listen <its address:port>${qr}`,
        json: inv,
      };
    }
    case 'join': {
      const inv = decodeInvite(a.token);
      if (!inv.ok) throw new Stop(2, 'not_a_token', inv.error);
      if (inv.value.expires <= now) throw new Stop(4, 'invite_expired', 'this invite expired (10 minutes); run collie crew invite on the lead again');
      const have = await readCrew(stateDir);
      if (have) throw new Stop(4, 'in_crew', `this machine is already ${have.role === 'lead' ? 'the lead' : 'a member'} of ${have.crew}; collie crew leave first`);
      const name = a.name ?? defaultName();
      const id = await loadIdentity(stateDir, name);
      const lead = parseListen(inv.value.lead);
      if (!lead.ok) throw new Stop(2, 'not_a_token', 'not a crew invite: the lead address in it is damaged');
      let certPem: string;
      try {
        certPem = await fetchPinnedCertificate(lead.value.host, lead.value.port, inv.value.fp);
      } catch (err) {
        const mismatch = (err as { code?: string }).code === 'fingerprint_mismatch';
        throw new Stop(mismatch ? 4 : 1, mismatch ? 'fingerprint_mismatch' : 'unreachable', (err as Error).message.replace(/^crew: /, ''));
      }
      const body: JoinRequest = {
        v: 1,
        crew: inv.value.crew,
        secret: inv.value.secret,
        machine: hostname().slice(0, 100) || name,
        member: { name, key: id.publicKeyText, fingerprint: id.fingerprint, listen: a.listen, version, cert: certText(id) },
      };
      let reply;
      try {
        reply = await crewRequest({ id, certPem, listen: inv.value.lead, method: 'POST', path: '/crew/v1/join', body });
      } catch (err) {
        throw new Stop(1, 'unreachable', (err as Error).message.replace(/^crew: /, ''));
      }
      if (reply.status !== 200) {
        const e = CrewErrorBody.safeParse(reply.json);
        throw new Stop(e.success && e.data.error.code !== 'internal' ? 4 : 1, e.success ? e.data.error.code : 'refused', e.success ? e.data.error.message.replace(/^crew: /, '') : `the lead answered HTTP ${reply.status}`);
      }
      const ans = JoinAnswer.safeParse(reply.json);
      if (!ans.success || ans.data.lead.fingerprint !== inv.value.fp || !peerConsistent(ans.data.lead)) throw new Stop(1, 'bad_answer', 'the lead answered something that is not a join answer for this invite');
      // The lead is kept at the address this machine reached it on (the invite's), which may differ from the one it binds.
      await withCrewLock(stateDir, () => writeCrew(stateDir, { version: 1, role: 'member', crew: ans.data.crew, name: ans.data.member.name, listen: a.listen, joined: now, lead: { ...ans.data.lead, listen: inv.value.lead } }));
      return {
        text: `Joined crew ${ans.data.crew} as ${ans.data.member.name}. The lead is ${ans.data.lead.name} (${ans.data.lead.listen}, certificate pinned).`,
        json: { crew: ans.data.crew, name: ans.data.member.name, role: 'member', lead: { name: ans.data.lead.name, listen: ans.data.lead.listen, fingerprint: ans.data.lead.fingerprint } },
      };
    }
    case 'list': {
      const crew = await inCrew(stateDir);
      const id = await readIdentity(stateDir);
      const hello = async (listen: string, cert: string): Promise<CrewHello | null> => {
        if (!id) return null;
        try {
          const r = await crewRequest({ id, certPem: pemOfDer(cert), listen, method: 'GET', path: '/crew/v1/hello', timeoutMs: 3000 });
          const h = CrewHello.safeParse(r.json);
          return r.status === 200 && h.success ? h.data : null;
        } catch {
          return null;
        }
      };
      type Row = { name: string; role: 'lead' | 'member'; version: string; lastSeen: number | null; reachable: boolean | null; listen: string; you: boolean };
      let rows: Row[];
      if (crew.role === 'lead') {
        const status = await readStatus(stateDir);
        const answers = await Promise.all(crew.members.map((m) => hello(m.listen, m.cert)));
        rows = [
          { name: crew.name, role: 'lead', version, lastSeen: now, reachable: true, listen: crew.listen, you: true },
          ...crew.members.map((m, i) => {
            const s = status?.members[m.name];
            const h = answers[i];
            return { name: m.name, role: 'member' as const, version: h?.version ?? s?.version ?? m.version, lastSeen: h || s?.connected ? now : (s?.lastSeen ?? null), reachable: Boolean(h) || Boolean(s?.connected), listen: m.listen, you: false };
          }),
        ];
      } else {
        const h = await hello(crew.lead.listen, crew.lead.cert);
        rows = [
          { name: crew.lead.name, role: 'lead', version: h?.version ?? crew.lead.version, lastSeen: h ? now : null, reachable: Boolean(h), listen: crew.lead.listen, you: false },
          { name: crew.name, role: 'member', version, lastSeen: now, reachable: true, listen: crew.listen, you: true },
        ];
      }
      const head = `CREW ${crew.crew} (${crew.role === 'lead' ? 'this machine leads' : `this machine is a member; the others are listed on the lead, ${crew.lead.name}`})`;
      const text = [head, table([['NAME', 'ROLE', 'VERSION', 'LAST SEEN', 'REACHABLE', 'ADDRESS'], ...rows.map((r) => [r.name + (r.you ? ' (you)' : ''), r.role, r.version, ago(r.lastSeen, now), r.reachable ? 'yes' : 'no', r.listen])])].join('\n');
      return { text, json: { crew: crew.crew, role: crew.role, members: rows } };
    }
    case 'leave': {
      const crew = await inCrew(stateDir);
      if (crew.role === 'lead') {
        if (!a.dissolve) throw new Stop(4, 'is_lead', `this machine leads ${crew.crew}: remove members with collie crew remove <member>, or end the crew with collie crew leave --dissolve`);
        await withCrewLock(stateDir, () => writeCrew(stateDir, null));
        return { text: `Crew ${crew.crew} ended. Its members are refused from now on; each can run collie crew leave.`, json: { crew: crew.crew, left: crew.name, dissolved: true } };
      }
      const id = await readIdentity(stateDir);
      let told = false;
      if (id) {
        try {
          told = (await crewRequest({ id, certPem: pemOfDer(crew.lead.cert), listen: crew.lead.listen, method: 'POST', path: '/crew/v1/leave', body: {}, timeoutMs: 5000 })).status === 200;
        } catch {
          told = false;
        }
      }
      await withCrewLock(stateDir, () => writeCrew(stateDir, null));
      return { text: `Left crew ${crew.crew}.${told ? '' : ` The lead (${crew.lead.name}) could not be told; run collie crew remove ${crew.name} there.`}`, json: { crew: crew.crew, left: crew.name, leadTold: told } };
    }
    case 'remove': {
      const r = await admin(() => removeFromCrew(stateDir, a.member, now));
      return { text: `Removed ${r.removed} from ${r.crew}. Its key is refused from now on.`, json: r };
    }
    case 'update': {
      const crew = await leading(stateDir);
      const advice = updateAdvice(io.version ?? version, crew, await askVersions(stateDir), await readStatus(stateDir));
      return { text: advice.text, json: { lead: io.version ?? version, members: advice.rows } };
    }
  }
}

/** Run one crew command; never throws. */
export async function crew(argv: readonly string[], io: CrewIo = { env: process.env, tty: Boolean(process.stdout.isTTY) }): Promise<CrewPrinted> {
  const json = argv.includes('--json');
  const parsed = parseCrewArgs(argv);
  if (!parsed.ok) return json ? { out: `${JSON.stringify({ error: { code: 'usage', message: parsed.error } })}\n`, err: '', code: 2 } : { out: '', err: `collie crew: ${parsed.error}\n${USAGE}\n`, code: 2 };
  const paths = statePaths(io.env);
  if (paths.errors.length > 0) return { out: '', err: `collie: the configuration is not usable:\n  ${paths.errors.join('\n  ')}\n`, code: 1 };
  try {
    const r = await run(parsed.args, paths.stateDir, io);
    return { out: `${parsed.args.json ? JSON.stringify(r.json) : r.text}\n`, err: '', code: 0 };
  } catch (err) {
    const e = err instanceof Stop ? err : new Stop(1, 'internal', (err as Error).message);
    return parsed.args.json ? { out: `${JSON.stringify({ error: { code: e.code, message: e.message } })}\n`, err: '', code: e.exit } : { out: '', err: `collie crew: ${e.message}\n`, code: e.exit };
  }
}
