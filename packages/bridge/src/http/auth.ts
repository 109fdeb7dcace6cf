/**
 * Who may use the API: a paired device (its cookie, or `Authorization: Bearer <token>`), or
 * a login a loopback proxy vouches for when the user opted in (`COLLIE_TRUSTED_USER`).
 * `authorize` is the one check; `requireDevice` applies it to every `/api` route but the
 * pairing route, and the events socket applies it at the upgrade.
 */
import type { MiddlewareHandler } from 'hono';
import { DeviceToken, type StoredDevice } from '@collie/protocol';
import type { DeviceStore } from '../devices';
import { ApiError, fail } from './api-error';

/** Routes reachable without a device: only pairing itself. */
export const PUBLIC_API: readonly { method: string; path: string }[] = [{ method: 'POST', path: '/api/pair' }];

export type Who = { kind: 'device'; device: StoredDevice } | { kind: 'proxy'; login: string };

declare module 'hono' {
  interface ContextVariableMap {
    who: Who;
  }
}

export interface AuthDeps {
  devices: Pick<DeviceStore, 'check' | 'touch' | 'cookieName'>;
  /** `COLLIE_TRUSTED_USER`: the `Tailscale-User-Login` accepted from a loopback peer; null: none. */
  trustedUser: string | null;
}

/** What `authorize` reads from a request. */
export interface Credentials {
  authorization?: string | undefined;
  cookie?: string | undefined;
  /** `Tailscale-User-Login`, set by `tailscale serve` for tailnet users. */
  login?: string | undefined;
  /** The TCP peer's address. */
  peer?: string | undefined;
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
  // The header means something only when the user named the login, and only from a proxy on
  // this machine: anyone else could type it.
  if (d.trustedUser !== null && c.login !== undefined && c.login === d.trustedUser && isLoopback(c.peer)) {
    return { ok: true, who: { kind: 'proxy', login: c.login } };
  }
  return unauthorized('bridge: pair this device first (open the pairing link from collie pair, or type its code)');
}

/** The Hono middleware over `/api/*`. */
export function requireDevice(d: AuthDeps): MiddlewareHandler {
  return async (c, next) => {
    if (PUBLIC_API.some((r) => r.method === c.req.method && r.path === c.req.path)) return next();
    const peer = peerOf(c.env);
    const result = authorize(d, { authorization: c.req.header('authorization'), cookie: c.req.header('cookie'), login: c.req.header('tailscale-user-login'), peer });
    if (!result.ok) return fail(c, result.error);
    c.set('who', result.who);
    await next();
  };
}

/** The TCP peer of a request served by @hono/node-server (its env holds the IncomingMessage). */
function peerOf(env: unknown): string | undefined {
  if (typeof env !== 'object' || env === null || !('incoming' in env)) return undefined;
  const incoming: unknown = env.incoming;
  if (typeof incoming !== 'object' || incoming === null || !('socket' in incoming)) return undefined;
  const socket: unknown = incoming.socket;
  if (typeof socket !== 'object' || socket === null || !('remoteAddress' in socket)) return undefined;
  return typeof socket.remoteAddress === 'string' ? socket.remoteAddress : undefined;
}
