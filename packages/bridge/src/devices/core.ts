/**
 * The devices state as pure functions: pairing offers, redeeming a code or a link, devices,
 * revocation. Time and randomness are passed in; nothing here touches a file or a socket.
 */
import type { DeviceKind, DevicesFile, PairingOffer, StoredDevice, StoredOffer } from '@collie/protocol';
import { OPEN_LOCK, lockedUntil, recordWrongCode, triesLeft } from './lockout';
import { type RandomBytes, newCode, newToken, sameHash, sha256 } from './secrets';

/** A pairing link or code is good for 10 minutes, once. */
export const OFFER_MS = 10 * 60_000;
/** Ended offers are kept a day, so a replayed link is refused with its reason, not as unknown. */
const KEEP_ENDED_MS = 24 * 3600_000;
/** At most this many offers wait at once; the oldest goes first. */
const MAX_OPEN_OFFERS = 20;

const hex = (random: RandomBytes, bytes: number) => Buffer.from(random(bytes)).toString('hex');

export function emptyState(random: RandomBytes): DevicesFile {
  return { version: 1, instance: hex(random, 4), devices: [], offers: [], lock: OPEN_LOCK };
}

/** Drops offers ended more than a day ago. */
export function prune(state: DevicesFile, now: number): DevicesFile {
  const offers = state.offers.filter((o) => Math.max(o.expiresAt, o.usedAt ?? 0) > now - KEEP_ENDED_MS);
  return offers.length === state.offers.length ? state : { ...state, offers };
}

/** An offer; `maySend` false pairs a watch-only device (`collie pair --watch-only`). */
export function createOffer(state: DevicesFile, now: number, random: RandomBytes, maySend = true): { state: DevicesFile; offer: PairingOffer } {
  const token = newToken('cp1_', random);
  const code = newCode(random);
  const stored: StoredOffer = { id: hex(random, 6), tokenHash: sha256(token), codeHash: sha256(code), createdAt: now, expiresAt: now + OFFER_MS, usedAt: null, maySend };
  const open = state.offers.filter((o) => o.usedAt === null && o.expiresAt > now);
  const drop = new Set(open.slice(0, Math.max(0, open.length - MAX_OPEN_OFFERS + 1)).map((o) => o.id));
  const offers = [...prune(state, now).offers.filter((o) => !drop.has(o.id)), stored];
  return { state: { ...state, offers }, offer: { token, code, expiresAt: stored.expiresAt, maySend } };
}

export type RedeemFailure = 'wrong_code' | 'locked' | 'used' | 'expired' | 'unknown_link';

export type RedeemOutcome =
  | { readonly ok: true; readonly state: DevicesFile; readonly via: 'code' | 'link'; readonly maySend: boolean }
  | { readonly ok: false; readonly state: DevicesFile; readonly reason: RedeemFailure; readonly lockedUntil: number | null; readonly triesLeft: number };

/**
 * Redeem a code (already normalised to 8 characters) or a link token. Every offer's hash is
 * compared, in constant time, whatever matched first. Wrong codes count toward the lock;
 * while locked, no code is even compared.
 */
export function redeem(state: DevicesFile, input: { code: string } | { token: string }, now: number): RedeemOutcome {
  const byCode = 'code' in input;
  const fail = (s: DevicesFile, reason: RedeemFailure): RedeemOutcome => ({ ok: false, state: s, reason, lockedUntil: lockedUntil(s.lock, now), triesLeft: triesLeft(s.lock, now) });
  if (byCode && lockedUntil(state.lock, now) !== null) return fail(state, 'locked');
  const hash = sha256(byCode ? input.code : input.token);
  let match: StoredOffer | null = null;
  for (const o of state.offers) if (sameHash(byCode ? o.codeHash : o.tokenHash, hash) && match === null) match = o;
  if (match === null) {
    if (!byCode) return fail(state, 'unknown_link');
    const lock = recordWrongCode(state.lock, now);
    return fail({ ...state, lock }, lockedUntil(lock, now) !== null ? 'locked' : 'wrong_code');
  }
  if (match.usedAt !== null) return fail(state, 'used');
  if (match.expiresAt <= now) return fail(state, 'expired');
  const used = match.id;
  const offers = state.offers.map((o) => (o.id === used ? { ...o, usedAt: now } : o));
  return { ok: true, state: { ...state, offers, lock: byCode ? OPEN_LOCK : state.lock }, via: byCode ? 'code' : 'link', maySend: match.maySend };
}

export const active = (state: DevicesFile): StoredDevice[] => state.devices.filter((d) => d.revokedAt === null);

/** `base`, or `base 2`, `base 3`… so names among active devices stay unique. */
export function uniqueName(state: DevicesFile, base: string, except?: string): string {
  const taken = new Set(active(state).filter((d) => d.id !== except).map((d) => d.name.toLowerCase()));
  if (!taken.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} ${n}`.toLowerCase())) return `${base} ${n}`;
}

export function addDevice(state: DevicesFile, o: { name: string; kind: DeviceKind; maySend?: boolean }, now: number, random: RandomBytes): { state: DevicesFile; device: StoredDevice; token: string } {
  const token = newToken('cd1_', random);
  const device: StoredDevice = { id: hex(random, 6), name: uniqueName(state, o.name), kind: o.kind, hash: sha256(token), pairedAt: now, lastSeen: now, revokedAt: null, maySend: o.maySend ?? true };
  return { state: { ...state, devices: [...state.devices, device] }, device, token };
}

/** The active device of that id or (case-insensitive) name. */
export function findDevice(state: DevicesFile, idOrName: string): StoredDevice | null {
  const all = active(state);
  return all.find((d) => d.id === idOrName) ?? all.find((d) => d.name.toLowerCase() === idOrName.toLowerCase()) ?? null;
}

export function revoke(state: DevicesFile, id: string, now: number): DevicesFile {
  return { ...state, devices: state.devices.map((d) => (d.id === id && d.revokedAt === null ? { ...d, revokedAt: now } : d)) };
}

/** Renames an active device; null when another active device has that name. */
export function rename(state: DevicesFile, id: string, name: string): DevicesFile | null {
  if (uniqueName(state, name, id) !== name) return null;
  return { ...state, devices: state.devices.map((d) => (d.id === id ? { ...d, name } : d)) };
}

/** Gives an active device the right to send (true) or makes it watch-only (false). */
export function setRight(state: DevicesFile, id: string, maySend: boolean): DevicesFile {
  return { ...state, devices: state.devices.map((d) => (d.id === id && d.revokedAt === null ? { ...d, maySend } : d)) };
}

/** A short name for a browser from its User-Agent: "Safari on iPhone", "Chrome on Android". */
export function nameFromUserAgent(ua: string | undefined): string {
  const s = ua ?? '';
  const os = /iPhone/.test(s) ? 'iPhone' : /iPad/.test(s) ? 'iPad' : /Android/.test(s) ? 'Android' : /Mac OS X|Macintosh/.test(s) ? 'Mac' : /Windows/.test(s) ? 'Windows' : /Linux|X11/.test(s) ? 'Linux' : null;
  const browser = /Edg\//.test(s) ? 'Edge' : /Firefox\/|FxiOS/.test(s) ? 'Firefox' : /Chrome\/|CriOS|Chromium/.test(s) ? 'Chrome' : /Safari\//.test(s) ? 'Safari' : null;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? 'Browser';
}
