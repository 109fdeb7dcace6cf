import { z } from 'zod';
import { ErrorBody } from './errors';

/**
 * Devices: the browsers and scripts allowed in. A browser pairs with a one-time link or an
 * 8-character code and gets a cookie; a script gets a bearer token from `collie token`.
 * The bridge keeps only SHA-256 hashes of tokens and codes.
 */

/** What a device is: a paired browser, or a script's bearer token. */
export const DeviceKind = z.enum(['browser', 'token']);
export type DeviceKind = z.infer<typeof DeviceKind>;

/** A name a person gives a device: printable, 1 to 40 characters. */
export const DeviceName = z
  .string()
  .trim()
  .min(1, 'a device name is 1 to 40 characters')
  .max(40, 'a device name is 1 to 40 characters')
  .regex(/^[^\u0000-\u001f\u007f-\u009f]+$/, 'a device name has no control characters');

/** 8 characters a person types; dashes and spaces are ignored, case too. */
export const PAIRING_CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const PairingCode = z
  .string()
  .max(32)
  .transform((s) => s.replace(/[\s-]/g, '').toUpperCase())
  .pipe(z.string().regex(/^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{8}$/, 'a pairing code is 8 letters and digits, like 7KQ2-M9XD'));

/** A one-time pairing token as it travels in a pairing link (`#/pair/<token>`). */
export const PairingToken = z.string().regex(/^cp1_[A-Za-z0-9_-]{43}$/, 'not a pairing link token');
/** A device token (cookie or `Authorization: Bearer`). */
export const DeviceToken = z.string().regex(/^cd1_[A-Za-z0-9_-]{43}$/, 'not a device token');

/** A device as the API shows it; `current` marks the device that asked. */
export const Device = z.object({
  id: z.string(),
  name: z.string(),
  kind: DeviceKind,
  pairedAt: z.number(),
  lastSeen: z.number().nullable(),
  current: z.boolean(),
  /** False for a watch-only device: it reads everything, and every write but its own few is refused `device_may_not_send`. */
  maySend: z.boolean(),
});
export type Device = z.infer<typeof Device>;

/** `GET /api/devices`. `via` is how the asking request got in: its device, or the proxy's login. */
export const DevicesList = z.object({
  devices: z.array(Device),
  via: z.union([z.object({ kind: z.literal('device'), id: z.string() }), z.object({ kind: z.literal('proxy'), login: z.string() })]),
});
export type DevicesList = z.infer<typeof DevicesList>;

/** `POST /api/pair`: a code typed on the pairing page, or the token of a pairing link. */
export const PairRequest = z.union([z.object({ code: PairingCode }).strict(), z.object({ token: z.string().max(200) }).strict()]);
export type PairRequest = z.infer<typeof PairRequest>;

/**
 * `POST /api/devices/pair`: a phone that may send pairs another device: the same offer as
 * `collie pair` (one use, 10 minutes); `may_send: false` pairs it watch-only.
 */
export const PhonePairRequest = z.object({ may_send: z.boolean() }).strict();
export type PhonePairRequest = z.infer<typeof PhonePairRequest>;

/** Its answer: the link (the bridge's public address when known, else the one the phone used), the code, and the link's QR code as rows of 1 (dark) and 0. */
export const PhonePairOffer = z.object({ link: z.string(), code: z.string(), expiresAt: z.number(), maySend: z.boolean(), qr: z.array(z.string()) });
export type PhonePairOffer = z.infer<typeof PhonePairOffer>;

/** `POST /api/pair` answer; the device token itself goes only into the HttpOnly cookie. */
export const PairResult = z.object({ ok: z.literal(true), device: Device });
export type PairResult = z.infer<typeof PairResult>;

/** `POST /api/devices/:id/rename`. */
export const RenameDeviceRequest = z.object({ name: DeviceName }).strict();
/** `POST /api/devices/:id/right`: may this device send (true), or only watch (false)? */
export const DeviceRightRequest = z.object({ maySend: z.boolean() }).strict();
export type DeviceRightRequest = z.infer<typeof DeviceRightRequest>;
/** `POST /api/devices/:id/revoke` takes an empty object. */
export const RevokeDeviceRequest = z.object({}).strict();
export const DeviceResult = z.object({ ok: z.literal(true), device: Device });

// ── stored: <state>/devices.json ──

const Hash = z.string().regex(/^[0-9a-f]{64}$/);
export const StoredDevice = z.object({
  id: z.string().regex(/^[0-9a-f]{12}$/),
  name: z.string(),
  kind: DeviceKind,
  hash: Hash,
  pairedAt: z.number(),
  lastSeen: z.number().nullable(),
  revokedAt: z.number().nullable(),
  /** Absent in files written before send rights: every device then could send, and keeps that right. */
  maySend: z.boolean().default(true),
});
export type StoredDevice = z.infer<typeof StoredDevice>;

export const StoredOffer = z.object({
  id: z.string(),
  tokenHash: Hash,
  codeHash: Hash,
  createdAt: z.number(),
  expiresAt: z.number(),
  usedAt: z.number().nullable(),
  /** The right the device that redeems it gets (`collie pair --watch-only`: false). */
  maySend: z.boolean().default(true),
});
export type StoredOffer = z.infer<typeof StoredOffer>;

/** Wrong codes: their times inside the window, and the end of a lock. */
export const PairingLock = z.object({ failures: z.array(z.number()), lockedUntil: z.number().nullable() });
export type PairingLock = z.infer<typeof PairingLock>;

export const DevicesFile = z.object({
  version: z.literal(1),
  /** Names this state dir's cookie, so two bridges on one host name keep their own. */
  instance: z.string().regex(/^[0-9a-f]{8}$/),
  devices: z.array(StoredDevice),
  offers: z.array(StoredOffer),
  lock: PairingLock,
});
export type DevicesFile = z.infer<typeof DevicesFile>;

// ── the devices socket: <state>/devices.sock, one JSON line each way ──

export const DevicesCommand = z.discriminatedUnion('op', [
  z.object({ op: z.literal('hello') }).strict(),
  z.object({ op: z.literal('pair'), maySend: z.boolean().optional() }).strict(),
  z.object({ op: z.literal('token'), name: DeviceName, maySend: z.boolean().optional() }).strict(),
  z.object({ op: z.literal('list') }).strict(),
  z.object({ op: z.literal('revoke'), name: z.string().min(1).max(100) }).strict(),
  /** `collie devices set <device> --watch-only|--may-send`. */
  z.object({ op: z.literal('set'), name: z.string().min(1).max(100), maySend: z.boolean() }).strict(),
  /** `collie durable list`: each durable agent's state as the running bridge sees it. */
  z.object({ op: z.literal('durable') }).strict(),
]);
export type DevicesCommand = z.infer<typeof DevicesCommand>;

/** A fresh pairing offer: the link's token and the code, both shown once. */
export const PairingOffer = z.object({ token: PairingToken, code: z.string(), expiresAt: z.number(), maySend: z.boolean() });
export type PairingOffer = z.infer<typeof PairingOffer>;

export const DevicesReply = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), run: z.string(), url: z.string(), publicUrl: z.string().nullable() }),
  z.object({ type: z.literal('pairing'), offer: PairingOffer, url: z.string(), publicUrl: z.string().nullable() }),
  z.object({ type: z.literal('token'), token: DeviceToken, device: Device }),
  z.object({ type: z.literal('devices'), devices: z.array(Device) }),
  z.object({ type: z.literal('revoked'), device: Device }),
  /** `set`: the device as it is now; `changed` false when it already had that right. */
  z.object({ type: z.literal('set'), device: Device, changed: z.boolean() }),
  z.object({ type: z.literal('durable'), agents: z.array(z.object({ name: z.string(), state: z.string(), problem: z.string().nullable() })) }),
  z.object({ type: z.literal('error'), error: ErrorBody.shape.error }),
]);
export type DevicesReply = z.infer<typeof DevicesReply>;

/** The events socket's close code when the bridge removes the device that opened it. */
export const CLOSE_DEVICE_REVOKED = 4401;
/** The events socket's close code when the device's send right changed: reconnect, and read it in the new hello. */
export const CLOSE_DEVICE_CHANGED = 4409;

/** The one sentence a watch-only device shows where a send, an answer or a message would be. */
export const MAY_NOT_SEND_WORDS = 'This device may not send messages.';
