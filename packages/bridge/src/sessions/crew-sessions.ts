import { ApiError } from '../http/api-error';
import type { SessionAgent, SessionChat, SessionResumeBody, SessionResumed, SessionSummary, SessionsPage, SessionsQuery } from '@collie/protocol';
import type { SessionActions } from './actions';

/** How a lead reaches a member's sessions: the crew's calls (crew/lead-phone.ts), ids and texts already the lead's. */
export interface MemberSessions {
  list(member: string, q: Omit<SessionsQuery, 'machine'>): Promise<SessionsPage>;
  read(member: string, agent: SessionAgent, id: string, before: number | null, limit: number): Promise<SessionChat>;
  resume(member: string, agent: SessionAgent, id: string, body: SessionResumeBody): Promise<SessionResumed>;
}

export interface CrewSessionDeps {
  /** The lead's own machine name. */
  self: string;
  /** The members, and whether each one's stream is open now. */
  members: () => { name: string; reachable: boolean }[];
  local: SessionActions;
  remote: MemberSessions;
}

/** The Sessions page on a lead: every machine's list merged, a member's session read and resumed on it. */
export interface CrewSessions {
  list(q: SessionsQuery): Promise<SessionsPage>;
  /** The member a `machine` names, null for the lead's own; not_found for no such machine. */
  member(machine: string): string | null;
  read(member: string, agent: SessionAgent, id: string, before: number | null, limit: number): Promise<SessionChat>;
  resume(member: string, agent: SessionAgent, id: string, body: SessionResumeBody): Promise<SessionResumed>;
}

/** Where a machine's list goes on from: its own cursor (null: its start) and how many of that page were shown already. */
type At = [cursor: string | null, skip: number];
/** A machine's page is asked at most this long (the query's own limit). */
const MAX_ASK = 200;

/** The lead's cursor: each machine's place; a machine not in it is done. */
export function encodeCrewCursor(at: Record<string, At>): string {
  return `c.${Buffer.from(JSON.stringify(at)).toString('base64url')}`;
}
export function decodeCrewCursor(c: string): Record<string, At> | null {
  if (!c.startsWith('c.')) return null;
  try {
    const v: unknown = JSON.parse(Buffer.from(c.slice(2), 'base64url').toString('utf8'));
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
    const out: Record<string, At> = {};
    for (const [m, at] of Object.entries(v)) {
      // A machine's name (never `__proto__` or the like).
      if (!/^[a-z0-9][a-z0-9-]{0,99}$/.test(m)) return null;
      if (!Array.isArray(at) || !(at[0] === null || typeof at[0] === 'string') || !Number.isInteger(at[1]) || at[1] < 0 || at[1] >= MAX_ASK) return null;
      out[m] = [at[0] as string | null, at[1] as number];
    }
    return out;
  } catch {
    return null;
  }
}

/**
 * Merges each machine's own pages, newest first. Each machine is asked for its page from where
 * the cursor says (its own cursor, and how many of that page were shown already); an entry is
 * shown only when no machine that has more could still hold a newer one, so paging never skips
 * or repeats a session. A member that does not answer is named in `away` and asked again on the
 * next page.
 */
export function crewSessions(d: CrewSessionDeps): CrewSessions {
  const machines = () => [d.self, ...d.members().map((m) => m.name)];
  const member = (machine: string): string | null => {
    if (machine === d.self) return null;
    if (!d.members().some((m) => m.name === machine)) throw new ApiError('not_found', `sessions: no machine '${machine.slice(0, 100)}' in this crew`);
    return machine;
  };
  return {
    member,
    read: (m, agent, id, before, limit) => d.remote.read(m, agent, id, before, limit),
    resume: (m, agent, id, body) => d.remote.resume(m, agent, id, body),
    async list(q) {
      const { machine, cursor, ...rest } = q;
      if (machine !== undefined) member(machine);
      const wanted = machine !== undefined ? [machine] : machines();
      const at: Record<string, At> = cursor === undefined ? Object.fromEntries(wanted.map((m) => [m, [null, 0] as At])) : (decodeCrewCursor(cursor) ?? {});
      if (cursor !== undefined && !decodeCrewCursor(cursor)) throw new ApiError('bad_request', 'sessions: that cursor is not from an earlier page');
      const reachable = new Map(d.members().map((m) => [m.name, m.reachable]));
      const away: SessionsPage['away'] = [];
      const pages = await Promise.all(
        wanted
          .filter((m) => at[m] !== undefined)
          .map(async (m) => {
            const [from, skip] = at[m]!;
            const ask = { ...rest, limit: Math.min(MAX_ASK, skip + q.limit), ...(from !== null ? { cursor: from } : {}) };
            try {
              if (m !== d.self && !reachable.get(m)) throw new ApiError('member_unreachable', `${m} is not connected to the lead; its sessions show again once it is.`);
              const page = m === d.self ? await d.local.list(ask) : await d.remote.list(m, ask);
              return { m, from, skip, page, sessions: page.sessions.slice(skip).map((s): SessionSummary => ({ ...s, machine: m })) };
            } catch (err) {
              away.push({ machine: m, reason: (err as Error).message.replace(/^crew: /, '') });
              return null;
            }
          }),
      );
      const answered = pages.filter((p) => p !== null);
      // A machine with more than it sent may hold sessions older than its last one only: nothing older is shown yet.
      const floor = Math.max(-Infinity, ...answered.filter((p) => p.page.next !== null && p.sessions.length > 0).map((p) => p.sessions.at(-1)!.updated));
      const merged = answered
        .flatMap((p, mi) => p.sessions.map((s, i) => ({ s, mi, i })))
        .sort((a, b) => b.s.updated - a.s.updated || a.mi - b.mi || a.i - b.i)
        .filter((x) => x.s.updated >= floor)
        .slice(0, q.limit);
      const next: Record<string, At> = {};
      for (const [mi, p] of answered.entries()) {
        const taken = merged.filter((x) => x.mi === mi).length;
        if (taken < p.sessions.length) next[p.m] = [p.from, p.skip + taken];
        else if (p.page.next !== null) next[p.m] = [p.page.next, 0];
      }
      const more = Object.keys(next).length > 0;
      // An away member is asked again from where it was, while any machine has more.
      if (more) for (const a of away) if (at[a.machine]) next[a.machine] = at[a.machine]!;
      const folders = [...new Set(answered.flatMap((p) => p.page.folders))].slice(0, 200);
      return { sessions: merged.map((x) => x.s), next: more ? encodeCrewCursor(next) : null, folders, away };
    },
  };
}
