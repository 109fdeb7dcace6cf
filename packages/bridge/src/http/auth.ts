/**
 * Who may use the API: a paired device (its cookie, or `Authorization: Bearer <token>`), or
 * a login the proxy vouches for when the user opted in (`COLLIE_TRUSTED_USER`), on a connection
 * whose peer socket belongs to the proxy's user (`COLLIE_TRUSTED_PROXY_USER`, see `peer-uid.ts`):
 * every local process connects from loopback, so loopback alone proves nothing.
 * `authorize` is the one check; `requireDevice` applies it to every `/api` route but the
 * pairing route, and the events socket applies it at the upgrade. `sendRight` is the one check
 * of a watch-only device's writes, applied by `requireDevice` right after.
 */
import type { MiddlewareHandler } from 'hono';
import { DeviceToken, type StoredDevice } from '@collie/protocol';
import type { DeviceStore } from '../devices';
import { ApiError, fail } from './api-error';
import { type TcpEnds, socketPeerUid } from './peer-uid';

/** Routes reachable without a device: only pairing itself. */
export const PUBLIC_API: readonly { method: string; path: string }[] = [{ method: 'POST', path: '/api/pair' }];

/**
 * The writes a watch-only device may make: none of them sends, answers or changes the machine.
 * Every other write (any method but GET and HEAD) on any `/api` route is refused
 * `device_may_not_send`, so a route added later is refused until it is listed here. `self`:
 * only on the asking device's own `:id` (a watch-only phone may remove itself).
 */
export const WATCH_ONLY_WRITES: readonly { method: string; path: string; self?: true }[] = [
  { method: 'POST', path: '/api/panes/:id/seen' },
  { method: 'POST', path: '/api/push/subscribe' },
  { method: 'POST', path: '/api/push/unsubscribe' },
  { method: 'POST', path: '/api/push/presence' },
  { method: 'POST', path: '/api/push/test' },
  { method: 'POST', path: '/api/devices/:id/revoke', self: true },
];

/** `/api/panes/:id/seen` as a pattern: each `:param` is one path segment. */
const pattern = (path: string) => new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:id\b/g, '(?<id>[^/]+)').replace(/:[a-z_]+/g, '[^/]+')}$`);
const WATCH_ONLY = WATCH_ONLY_WRITES.map((r) => ({ ...r, re: pattern(r.path) }));

/** A read, or a write a watch-only device may make (`WATCH_ONLY_WRITES`). */
export function watchOnlyMay(method: string, path: string, deviceId: string): boolean {
  if (method === 'GET' || method === 'HEAD') return true;
  return WATCH_ONLY.some((r) => {
    if (r.method !== method) return false;
    const m = r.re.exec(path);
    if (!m) return false;
    return !r.self || decoded(m.groups?.['id'] ?? '') === deviceId;
  });
}

/** A path segment decoded, or null when its escapes are malformed (then it names no device). */
function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The refusal of a write by a watch-only device, or null when `who` may make this request. */
export function sendRight(who: Who, method: string, path: string): ApiError | null {
  if (who.kind !== 'device' || who.device.maySend || watchOnlyMay(method, path, who.device.id)) return null;
  return new ApiError('device_may_not_send', `bridge: this device may only watch (${who.device.name}); a device that may send can change that on the Devices page, or run collie devices set '${who.device.name}' --may-send`);
}

export type Who = { kind: 'device'; device: StoredDevice } | { kind: 'proxy'; login: string };

declare module 'hono' {
  interface ContextVariableMap {
    who: Who;
    /** A request refused after the gates let it in: its code, for the audit line (which names who from `who`). */
    refused: { code: string } | undefined;
  }
}

export interface AuthDeps {
  devices: Pick<DeviceStore, 'check' | 'touch' | 'cookieName'>;
  /** `COLLIE_TRUSTED_USER`: the `Tailscale-User-Login` accepted from the proxy; null: none. */
  trustedUser: string | null;
  /** `COLLIE_TRUSTED_PROXY_USER` as a uid: the proxy's user, whose connections alone may carry that login (default 0, root). */
  trustedProxyUid?: number;
}

/** What `authorize` reads from a request. */
export interface Credentials {
  authorization?: string | undefined;
  cookie?: string | undefined;
  /** `Tailscale-User-Login`, set by `tailscale serve` for tailnet users. */
  login?: string | undefined;
  /** The TCP peer's address. */
  peer?: string | undefined;
  /** The local user that owns the peer's socket (asked only when a login is to be trusted); null: unknown. */
  peerUid?: (() => number | null) | undefined;
}

export type AuthResult = { ok: true; who: Who } | { ok: false; error: ApiError };

/** 127.0.0.0/8 and ::1, also IPv4-mapped: where a proxy on this machine connects from. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.replace(/^::ffff:/i, '');
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/** The value of cookie `name` in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

const unauthorized = (message: string) => ({ ok: false as const, error: new ApiError('unauthorized', message) });

export function authorize(d: AuthDeps, c: Credentials): AuthResult {
  let token: string | undefined;
  if (c.authorization !== undefined) {
    const m = /^Bearer +(\S+)$/i.exec(c.authorization.trim());
    if (!m) return unauthorized('bridge: the Authorization header must be "Bearer <device token>"');
    token = m[1];
  } else {
    token = cookieValue(c.cookie, d.devices.cookieName);
  }
  if (token !== undefined) {
    if (!DeviceToken.safeParse(token).success) return unauthorized('bridge: that is not a device token; pair this device again, or make one with collie token');
    const found = d.devices.check(token);
    if (!found.ok) return { ok: false, error: new ApiError(found.code, found.message) };
    d.devices.touch(found.device);
    return { ok: true, who: { kind: 'device', device: found.device } };
  }
  // The header means something only when the user named the login, and only from the proxy
  // itself: any local user could type it, and every local user connects from loopback.
  if (d.trustedUser !== null && c.login !== undefined && c.login === d.trustedUser && isLoopback(c.peer) && c.peerUid !== undefined && c.peerUid() === (d.trustedProxyUid ?? 0)) {
    return { ok: true, who: { kind: 'proxy', login: c.login } };
  }
  return unauthorized('bridge: pair this device first (open the pairing link from collie pair, or type its code)');
}

/** The Hono middleware over `/api/*`. */
export function requireDevice(d: AuthDeps): MiddlewareHandler {
  return async (c, next) => {
    if (PUBLIC_API.some((r) => r.method === c.req.method && r.path === c.req.path)) return next();
    const socket = socketOf(c.env);
    const result = authorize(d, { authorization: c.req.header('authorization'), cookie: c.req.header('cookie'), login: c.req.header('tailscale-user-login'), ...peerOf(socket) });
    if (!result.ok) {
      c.set('refused', { code: result.error.code });
      return fail(c, result.error);
    }
    c.set('who', result.who);
    const refused = sendRight(result.who, c.req.method, c.req.path);
    if (refused) {
      c.set('refused', { code: refused.code });
      return fail(c, refused);
    }
    await next();
  };
}

/** The TCP socket of a request served by @hono/node-server (its env holds the IncomingMessage). */
function socketOf(env: unknown): (TcpEnds & object) | undefined {
  if (typeof env !== 'object' || env === null || !('incoming' in env)) return undefined;
  const incoming: unknown = env.incoming;
  if (typeof incoming !== 'object' || incoming === null || !('socket' in incoming)) return undefined;
  const socket: unknown = incoming.socket;
  return typeof socket === 'object' && socket !== null ? (socket as TcpEnds) : undefined;
}

/** What `authorize` reads of the peer: its address, and who owns its socket (looked up once per connection). */
export function peerOf(socket: (TcpEnds & object) | undefined): Pick<Credentials, 'peer' | 'peerUid'> {
  if (!socket) return {};
  const peer = typeof socket.remoteAddress === 'string' ? socket.remoteAddress : undefined;
  return { peer, peerUid: () => socketPeerUid(socket) };
}
