import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionSummary, SessionsPage } from '@collie/protocol';
import { crewSessions, decodeCrewCursor, encodeCrewCursor } from './crew-sessions';

/**
 * The lead's merge of every machine's pages, against machines whose stores are any lists of
 * sessions (times with ties) served in pages of any size with an opaque cursor, as a machine's
 * own list serves them: paging the lead's list at any limit gives every session once, newest
 * first, and a machine that does not answer is named in `away` without failing the page.
 * Any cursor text is read without throwing.
 */
const session = (machine: string, i: number, updated: number): SessionSummary => ({ agent: 'pi', id: `${machine}-${i}`, folder: null, label: null, title: null, updated, size: 0, pane: null, machine: null });

/** A machine's list as its own route pages it: newest first, `next` an opaque cursor. */
function machineList(sessions: SessionSummary[]) {
  const sorted = [...sessions].sort((a, b) => b.updated - a.updated || (a.id < b.id ? -1 : 1));
  return async (q: { cursor?: string | undefined; limit: number }): Promise<SessionsPage> => {
    const from = q.cursor ? Number(Buffer.from(q.cursor, 'base64url').toString()) : 0;
    const page = sorted.slice(from, from + q.limit);
    const end = from + page.length;
    return { sessions: page, next: end < sorted.length ? Buffer.from(String(end)).toString('base64url') : null, folders: [], away: [] };
  };
}

describe('sessions across a crew', () => {
  it('pages every machine’s sessions once, newest first, at any limit', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 25 }), { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 7 }), async (stores, limit) => {
        const names = stores.map((_, i) => (i === 0 ? 'lead' : `m${i}`));
        const lists = new Map(names.map((n, i) => [n, machineList(stores[i]!.map((t, k) => session(n, k, t)))]));
        const crew = crewSessions({
          self: 'lead',
          members: () => names.slice(1).map((name) => ({ name, reachable: true })),
          local: { list: (q) => lists.get('lead')!(q), read: () => Promise.reject(new Error('no')), resume: () => Promise.reject(new Error('no')) },
          remote: { list: (m, q) => lists.get(m)!(q), read: () => Promise.reject(new Error('no')), resume: () => Promise.reject(new Error('no')) },
        });
        const seen: SessionSummary[] = [];
        let cursor: string | undefined;
        for (let pages = 0; ; pages++) {
          expect(pages).toBeLessThan(200);
          const page = await crew.list({ limit, ...(cursor ? { cursor } : {}) });
          expect(page.sessions.length).toBeLessThanOrEqual(limit);
          seen.push(...page.sessions);
          if (!page.next) break;
          cursor = page.next;
        }
        const all = names.flatMap((n, i) => stores[i]!.map((_, k) => `${n}-${k}`));
        expect(seen.map((s) => s.id).sort()).toEqual([...all].sort());
        for (let i = 1; i < seen.length; i++) expect(seen[i]!.updated).toBeLessThanOrEqual(seen[i - 1]!.updated);
        for (const s of seen) expect(s.machine).toBe(s.id.slice(0, s.id.lastIndexOf('-')));
      }),
      { numRuns: 150 },
    );
  });

  it('names a member that does not answer and still lists the others', async () => {
    const crew = crewSessions({
      self: 'lead',
      members: () => [{ name: 'gone', reachable: true }, { name: 'off', reachable: false }],
      local: { list: machineList([session('lead', 0, 5)]), read: () => Promise.reject(new Error('no')), resume: () => Promise.reject(new Error('no')) },
      remote: { list: () => Promise.reject(new Error('crew: gone dropped before it answered')), read: () => Promise.reject(new Error('no')), resume: () => Promise.reject(new Error('no')) },
    });
    const page = await crew.list({ limit: 10 });
    expect(page.sessions.map((s) => s.id)).toEqual(['lead-0']);
    expect(page.away.map((a) => a.machine).sort()).toEqual(['gone', 'off']);
    expect(page.away.find((a) => a.machine === 'gone')?.reason).toBe('gone dropped before it answered');
  });

  it('reads any cursor text without throwing, and its own back', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const v = decodeCrewCursor(text);
        expect(v === null || typeof v === 'object').toBe(true);
        const b = decodeCrewCursor(`c.${Buffer.from(text).toString('base64url')}`);
        expect(b === null || typeof b === 'object').toBe(true);
        expect(Object.getPrototypeOf(decodeCrewCursor(`c.${Buffer.from('{"__proto__":[null,0]}').toString('base64url')}`) ?? {})).toBe(Object.prototype);
      }),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,9}$/), fc.tuple(fc.option(fc.string({ maxLength: 30 }), { nil: null }), fc.integer({ min: 0, max: 199 }))), (at) => {
        expect(decodeCrewCursor(encodeCrewCursor(at))).toEqual(at);
      }),
    );
  });
});
