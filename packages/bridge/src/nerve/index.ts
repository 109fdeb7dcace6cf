/**
 * Nerve on the bridge: follows every Nerve `COLLIE_NERVE_API` names (one `api.json`, several, or
 * folders of Nerve state dirs: `sources.ts`), passes each one's events into the hub
 * (`nerve.event`, and `nerve.link` with the Nerve's name), and forwards a paired device's
 * `/api/nerve/*` to the right Nerve's `/api/*` with that Nerve's token: a session's routes to
 * the Nerve that holds it, the session list merged from all, a new session to the one named by
 * `?nerve=` (else the first that answers). The phone never holds a token; a Nerve never sees a
 * request without one. One adapter: nothing else of the bridge speaks to Nerve.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { EventHub } from '../events/hub';
import { followNerve, type Follower, type NerveAnswer } from './follow';
import { nerveName, parseNerveSources, type NerveSource } from './sources';

export { PHONE_SENDER, type NerveAnswer } from './follow';
export { parseNerveSources, type NerveSource } from './sources';

export interface NerveLinkOptions {
  hub: EventHub;
  /** `COLLIE_NERVE_API`: api.json files and folders of Nerve state dirs, `:`-separated; null: no Nerve. */
  apiFile: string | null;
  backoff?: { first: number; max: number };
  /** How often folders are looked at again for Nerves started or removed since (ms). */
  scanMs?: number;
}

export interface NerveLink {
  /** `ready` while at least one Nerve is reachable. */
  readonly state: 'off' | 'down' | 'ready';
  /** The Nerves followed, in the order of `COLLIE_NERVE_API`. */
  nerves(): Array<{ name: string; state: 'down' | 'ready' }>;
  /** Forwards one request to the right Nerve's API; null when the Nerve it needs cannot be reached. */
  forward(method: string, path: string, body: string | null): Promise<NerveAnswer | null>;
  stop(): Promise<void>;
}

/** What a device may send on: every route of Nerve's API but its event socket. */
export const FORWARDED = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const SCAN_MS = 3_000;

const error = (status: number, code: string, message: string): NerveAnswer => ({ status, body: { error: { code, message } } });
const unavailable = (f: Follower, several: boolean): NerveAnswer =>
  error(503, 'nerve_unavailable', `bridge: Nerve${several ? ` '${f.name}'` : ''} is not running (no answer at the address in ${f.apiFile})`);

export function startNerveLink(o: NerveLinkOptions): NerveLink {
  const parsed = o.apiFile === null ? null : parseNerveSources(o.apiFile);
  // The setting was checked when the config loaded; a bad one here follows nothing.
  const sources: NerveSource[] = parsed?.ok ? parsed.sources : [];
  /** Every Nerve followed, by api.json path, in source order. */
  let followers: Follower[] = [];
  let stopped = false;
  let scanTimer: NodeJS.Timeout | null = null;

  /** The api.json files the sources name now (a folder's are those that exist). */
  const wanted = async (): Promise<string[]> => {
    const files: string[] = [];
    for (const s of sources) {
      if (s.kind === 'file') {
        files.push(s.path);
        continue;
      }
      const names = await readdir(s.path).catch(() => [] as string[]);
      for (const name of names.sort()) {
        const file = join(s.path, name, 'api.json');
        if (await stat(file).then((st) => st.isFile(), () => false)) files.push(file);
      }
    }
    return [...new Set(files)];
  };

  const uniqueName = (file: string, taken: Set<string>): string => {
    const base = nerveName(file);
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
    return name;
  };

  const sync = async () => {
    const files = await wanted();
    if (stopped) return;
    const keep = followers.filter((f) => files.includes(f.apiFile));
    for (const f of followers) {
      if (keep.includes(f)) continue;
      f.stop();
      if (f.state === 'ready') o.hub.publish({ type: 'nerve.link', state: 'down', nerve: f.name });
    }
    const taken = new Set(keep.map((f) => f.name));
    const next: Follower[] = [];
    for (const file of files) {
      let f = keep.find((k) => k.apiFile === file);
      if (!f) {
        const name = uniqueName(file, taken);
        taken.add(name);
        f = followNerve({ hub: o.hub, name, apiFile: file, ...(o.backoff ? { backoff: o.backoff } : {}) });
      }
      next.push(f);
    }
    followers = next;
  };

  const scan = () => {
    if (stopped || !sources.some((s) => s.kind === 'folder')) return;
    scanTimer = setTimeout(() => void sync().then(scan), o.scanMs ?? SCAN_MS);
    scanTimer.unref();
  };

  const started = sources.length > 0 ? sync().then(scan) : Promise.resolve();

  /** The Nerve that holds a session: known from its events, else asked (every Nerve's list). */
  const owner = async (sessionId: string): Promise<Follower | 'nobody' | null> => {
    const known = followers.find((f) => f.sessions.has(sessionId));
    if (known) return known;
    const lists = await Promise.all(followers.map((f) => listOf(f)));
    const found = followers.find((f) => f.sessions.has(sessionId));
    if (found) return found;
    return lists.some((l) => l === null) ? null : 'nobody';
  };

  /** One Nerve's sessions (remembering which it holds); null when it cannot be reached. */
  const listOf = async (f: Follower): Promise<unknown[] | null> => {
    const got = await f.request('GET', '/api/sessions', null);
    if (!got || got.status !== 200) return null;
    const sessions = (got.body as { sessions?: unknown }).sessions;
    if (!Array.isArray(sessions)) return null;
    for (const s of sessions) {
      const id = (s as { session_id?: unknown }).session_id;
      if (typeof id === 'string') f.sessions.add(id);
    }
    return sessions;
  };

  const forward = async (method: string, path: string, body: string | null): Promise<NerveAnswer | null> => {
    await started;
    if (followers.length === 0) return null;
    const url = new URL(path, 'http://nerve');
    const session = /^\/api\/sessions\/([^/]+)(?:\/|$)/.exec(url.pathname);
    if (session) {
      let id: string;
      try {
        id = decodeURIComponent(session[1]!);
      } catch {
        return error(400, 'bad_request', 'bridge: the session id is not a valid URL component');
      }
      const f = await owner(id);
      if (f === null && followers.length === 1) return unavailable(followers[0]!, false);
      if (f === null) {
        const down = followers.filter((x) => x.state === 'down').map((x) => x.name);
        return error(503, 'nerve_unavailable', `bridge: no running Nerve holds session ${id.slice(0, 100)} (not answering: ${down.join(', ') || 'none'})`);
      }
      if (f === 'nobody') return error(404, 'not_found', `bridge: no Nerve holds session ${id.slice(0, 100)}`);
      const got = await f.request(method, path, body);
      if (!got) return unavailable(f, followers.length > 1);
      if (method === 'DELETE' && url.pathname === `/api/sessions/${session[1]}` && got.status === 200) f.sessions.delete(id);
      return got;
    }
    if (url.pathname === '/api/nerves' && method === 'GET') return { status: 200, body: { nerves: link.nerves() } };
    if (url.pathname === '/api/sessions' && method === 'GET') {
      const lists = await Promise.all(followers.map((f) => listOf(f)));
      if (lists.every((l) => l === null)) return null;
      return { status: 200, body: { sessions: lists.flatMap((l) => l ?? []) } };
    }
    if (url.pathname === '/api/sessions' && method === 'POST') {
      const named = url.searchParams.get('nerve');
      url.searchParams.delete('nerve');
      const rest = `${url.pathname}${url.search}`;
      if (named !== null) {
        const f = followers.find((x) => x.name === named);
        if (!f) return error(404, 'not_found', `bridge: no Nerve named ${JSON.stringify(named.slice(0, 100))} (followed: ${followers.map((x) => x.name).join(', ')})`);
        return remember(f, await f.request(method, rest, body)) ?? unavailable(f, followers.length > 1);
      }
      // The first Nerve, in the order configured, that answers.
      for (const f of followers) {
        const got = await f.request(method, rest, body);
        if (got) return remember(f, got);
      }
      return null;
    }
    if (url.pathname === '/api/health' && method === 'GET') {
      const all = await Promise.all(followers.map((f) => f.request('GET', path, null)));
      const up = all.filter((a): a is NerveAnswer => a !== null && a.status === 200);
      if (up.length === 0) return null;
      const sessions = up.reduce((n, a) => n + (Number((a.body as { sessions?: unknown }).sessions) || 0), 0);
      return { status: 200, body: { ok: up.length === followers.length, sessions } };
    }
    // Any other route: the first Nerve that answers (Nerve's own 404 for a route it lacks).
    for (const f of followers) {
      const got = await f.request(method, path, body);
      if (got) return got;
    }
    return null;
  };

  const remember = (f: Follower, got: NerveAnswer | null): NerveAnswer | null => {
    const id = (got?.body as { session_id?: unknown } | null)?.session_id;
    if (got && got.status < 300 && typeof id === 'string') f.sessions.add(id);
    return got;
  };

  const link: NerveLink = {
    get state() {
      if (sources.length === 0) return 'off';
      return followers.some((f) => f.state === 'ready') ? 'ready' : 'down';
    },
    nerves: () => followers.map((f) => ({ name: f.name, state: f.state })),
    forward,
    async stop() {
      stopped = true;
      if (scanTimer) clearTimeout(scanTimer);
      await started;
      for (const f of followers) f.stop();
    },
  };
  return link;
}
