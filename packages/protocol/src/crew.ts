/**
 * The crew link between bridges (docs/crew.md): names, invites, the signature header, the
 * join exchange and the frames of a member's one stream to its lead. Portable: no `node:*`.
 */
import { z } from 'zod';
import { ModelEvent } from './events';
import { Snapshot } from './pane';
import { AnswerRequest, KeysRequest, RequestId, SendReceipt, SendRequest } from './send';
import { CrewCall, CrewFeed, CrewFeedEnd, CrewResult, CrewUnwatch, CrewWatch } from './crew-phone';

/** `collie-` and 6 letters or digits: the crew's id, and the member part of the lead's addresses. */
export const CrewId = z.string().regex(/^collie-[a-z0-9]{6}$/, 'a crew id is collie- and 6 lower-case letters or digits');
export type CrewId = z.infer<typeof CrewId>;

/** A machine's name in its crew: the member part of its walky addresses. */
export const MemberName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'a crew name is 1 to 32 lower-case letters, digits or -, starting with a letter or digit')
  .refine((n) => !n.startsWith('collie-') && n !== 'local' && n !== 'all', 'a crew name may not be local, all, or start with collie-');
export type MemberName = z.infer<typeof MemberName>;

/** First 32 hex digits of SHA-256 over the Ed25519 public key (SPKI DER). */
export const KeyId = z.string().regex(/^[0-9a-f]{32}$/, 'a key id is 32 hex digits');
/** SHA-256 of a certificate (DER), lower-case hex. */
export const Fingerprint = z.string().regex(/^[0-9a-f]{64}$/, 'a certificate fingerprint is 64 hex digits');
/** An Ed25519 public key, SPKI DER in base64url (44 bytes → 59 characters). */
export const PublicKey = z.string().regex(/^[A-Za-z0-9_-]{59}$/, 'a public key is an Ed25519 SPKI in base64url');
/** A certificate, DER in base64url. */
export const CertificateDer = z.string().regex(/^[A-Za-z0-9_-]{100,4000}$/, 'a certificate is DER in base64url');

/** Where a crew listener binds and is reached: `host:port`, `[v6]:port`. */
export interface ListenAddress {
  host: string;
  port: number;
}

/** Parse `host:port`; a clear sentence when it is not one. Pure. */
export function parseListen(text: string): { ok: true; value: ListenAddress } | { ok: false; error: string } {
  const bad = (why: string) => ({ ok: false as const, error: `--listen '${text.slice(0, 80)}': ${why}` });
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(text);
  if (!m) return bad('give host:port, e.g. 100.64.0.2:7443 or [fd7a::2]:7443');
  const host = m[1] ?? m[2] ?? '';
  const port = Number(m[3]);
  if (port < 1 || port > 65535) return bad('the port is 1 to 65535');
  if (host === '0.0.0.0' || host === '::' || host === '*') return bad('name one address of this machine; the crew listener never binds every address');
  if (m[2] !== undefined && /^[\d.]+$/.test(host) && !/^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(host)) return bad('not an IPv4 address');
  return { ok: true, value: { host, port } };
}

/** `host:port` as printed and as a URL authority. */
export function formatListen(a: ListenAddress): string {
  return a.host.includes(':') ? `[${a.host}]:${a.port}` : `${a.host}:${a.port}`;
}

export const ListenText = z.string().refine((s) => parseListen(s).ok, 'an address is host:port');

/** The payload of an invite token (`cj1_` + base64url of this JSON). */
export const InvitePayload = z
  .object({
    v: z.literal(1),
    crew: CrewId,
    lead: ListenText,
    /** The lead's certificate fingerprint, pinned at join. */
    fp: Fingerprint,
    /** 32 random bytes, base64url: the lead keeps only its SHA-256. */
    secret: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
    expires: z.number().int().positive(),
  })
  .strict();
export type InvitePayload = z.infer<typeof InvitePayload>;

/** Ten minutes: an invite's life, and how far a signed request's clock may be off. */
export const CREW_WINDOW_MS = 10 * 60_000;

/**
 * `Collie-Crew-Signature: v2;key=…;to=…;ts=…;nonce=…;sig=…`. `to` is the key id of the machine the
 * request is for, so a request one receiver got cannot be replayed to another. `v1` (no `to`)
 * is what bridges signed before; only a lead still takes it, from its own members.
 */
export const SIGNATURE_HEADER = 'collie-crew-signature';

export interface SignatureParts {
  key: string;
  /** The receiver's key id; absent in a v1 header. */
  to?: string;
  ts: number;
  nonce: string;
  sig: string;
}

/** Parse the signature header (v2, or the older v1). Pure; null for anything not exactly that shape. */
export function parseSignatureHeader(text: string | undefined | null): SignatureParts | null {
  if (typeof text !== 'string' || text.length > 400) return null;
  const m = /^(?:v2;key=([0-9a-f]{32});to=([0-9a-f]{32})|v1;key=([0-9a-f]{32}));ts=(\d{1,15});nonce=([A-Za-z0-9_-]{22});sig=([A-Za-z0-9_-]{86})$/.exec(text);
  if (!m) return null;
  return { key: (m[1] ?? m[3])!, ...(m[2] ? { to: m[2] } : {}), ts: Number(m[4]), nonce: m[5]!, sig: m[6]! };
}

export function formatSignatureHeader(p: SignatureParts): string {
  return p.to ? `v2;key=${p.key};to=${p.to};ts=${p.ts};nonce=${p.nonce};sig=${p.sig}` : `v1;key=${p.key};ts=${p.ts};nonce=${p.nonce};sig=${p.sig}`;
}

/** The bytes a signature covers, as lines: v2 ends with the receiver's key id, v1 (no `to`) does not. Pure. */
export function signedText(method: string, path: string, bodyHash: string, ts: number, nonce: string, key: string, to?: string): string {
  const lines = [to ? 'collie-crew-v2' : 'collie-crew-v1', method.toUpperCase(), path, bodyHash, String(ts), nonce, key];
  return (to ? [...lines, to] : lines).join('\n');
}

/**
 * Why a crew request was refused. `removed` answers 403, the others 401. `misdirected`: signed
 * for another machine; `unbound`: signed the v1 way (no receiver), which only a lead takes.
 */
export const CrewRefusal = z.enum(['malformed', 'stale', 'removed', 'unknown_key', 'bad_signature', 'unbound', 'misdirected', 'replay']);
export type CrewRefusal = z.infer<typeof CrewRefusal>;

/** Every error a crew route answers, `{error:{code,message}}`. */
export const CrewErrorCode = z.enum([
  ...CrewRefusal.options,
  'bad_request',
  'not_found',
  'invite_unknown',
  'invite_used',
  'invite_expired',
  'name_taken',
  'not_lead',
  'too_large',
  'internal',
]);
export type CrewErrorCode = z.infer<typeof CrewErrorCode>;
export const CrewErrorBody = z.object({ error: z.object({ code: CrewErrorCode, message: z.string().max(500) }) });
export type CrewErrorBody = z.infer<typeof CrewErrorBody>;

/** A machine as the crew knows it. */
export const CrewPeer = z
  .object({
    name: MemberName,
    key: PublicKey,
    fingerprint: Fingerprint,
    listen: ListenText,
    version: z.string().min(1).max(40),
    /** Its certificate (DER, base64url): the trust anchor a peer pins. */
    cert: CertificateDer,
  })
  .strict();
export type CrewPeer = z.infer<typeof CrewPeer>;

/** `POST /crew/v1/join`, signed by the joiner's own key (the one it presents). */
export const JoinRequest = z
  .object({
    v: z.literal(1),
    crew: CrewId,
    secret: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
    /** The name asked for; the lead refuses one already taken. */
    member: CrewPeer,
    machine: z.string().min(1).max(100),
  })
  .strict();
export type JoinRequest = z.infer<typeof JoinRequest>;

export const JoinAnswer = z
  .object({
    crew: CrewId,
    lead: CrewPeer,
    member: z.object({ name: MemberName }).strict(),
  })
  .strict();
export type JoinAnswer = z.infer<typeof JoinAnswer>;

/** `GET /crew/v1/hello`: who answers. */
export const CrewHello = z.object({ crew: CrewId, name: MemberName, role: z.enum(['lead', 'member']), version: z.string().max(40) }).strict();
export type CrewHello = z.infer<typeof CrewHello>;

/** The events a member sends up its stream: its own hub's, as they happen. */
export const CREW_UP_EVENTS = new Set<ModelEvent['type']>([
  'pane.added',
  'pane.updated',
  'pane.removed',
  'send.updated',
  'durable.agent.updated',
  'durable.agent.removed',
  'durable.conversation.updated',
  'durable.conversation.removed',
  'durable.item.updated',
  // The lead's Sessions page follows a member's stores too.
  'session.changed',
]);

/** Member → lead, on the stream. */
export const CrewUp = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), name: MemberName, version: z.string().min(1).max(40), snapshot: Snapshot }).strict(),
  z.object({ type: z.literal('event'), event: ModelEvent }).strict(),
  z.object({ type: z.literal('reply'), id: RequestId, receipt: SendReceipt.nullable(), error: z.object({ code: z.string().max(40), message: z.string().max(500) }).nullable() }).strict(),
  // The answers to the lead's calls and watches (crew-phone.ts).
  CrewResult,
  CrewFeed,
  CrewFeedEnd,
]);
export type CrewUp = z.infer<typeof CrewUp>;

/** A request the lead carries to a member's pane, with the phone's request id. */
export const CrewRequest = z.discriminatedUnion('op', [
  z.object({ type: z.literal('request'), op: z.literal('send'), pane: z.string().min(1).max(200), body: SendRequest }).strict(),
  z.object({ type: z.literal('request'), op: z.literal('keys'), pane: z.string().min(1).max(200), body: KeysRequest }).strict(),
  z.object({ type: z.literal('request'), op: z.literal('answer'), pane: z.string().min(1).max(200), body: AnswerRequest }).strict(),
]);
export type CrewRequest = z.infer<typeof CrewRequest>;

/** Lead → member, on the stream. */
export const CrewDown = z.union([CrewRequest, z.object({ type: z.literal('ping'), at: z.number() }).strict(), CrewCall, CrewWatch, CrewUnwatch]);
export type CrewDown = z.infer<typeof CrewDown>;

/** The largest frame either side accepts (a snapshot of many panes). */
export const CREW_MAX_FRAME = 8 * 1024 * 1024;

/** A member as the lead keeps it in `<state>/crew/crew.json`. */
export const CrewMemberRecord = CrewPeer.extend({ machine: z.string().max(100), joined: z.number() }).strict();
export type CrewMemberRecord = z.infer<typeof CrewMemberRecord>;

/** `<state>/crew/crew.json` (0600): this machine's crew, as the lead or as a member. */
export const CrewFile = z.discriminatedUnion('role', [
  z
    .object({
      version: z.literal(1),
      role: z.literal('lead'),
      crew: CrewId,
      name: MemberName,
      listen: ListenText,
      created: z.number(),
      members: z.array(CrewMemberRecord),
      removed: z.array(z.object({ name: MemberName, keyId: KeyId, at: z.number() }).strict()),
    })
    .strict(),
  z
    .object({
      version: z.literal(1),
      role: z.literal('member'),
      crew: CrewId,
      name: MemberName,
      listen: ListenText,
      joined: z.number(),
      lead: CrewPeer,
    })
    .strict(),
]);
export type CrewFile = z.infer<typeof CrewFile>;

/** `<state>/crew/invites.json` (0600): only SHA-256 of each token's secret. */
export const InvitesFile = z.object({ version: z.literal(1), invites: z.array(z.object({ hash: z.string().regex(/^[0-9a-f]{64}$/), expires: z.number(), used: z.number().nullable() }).strict()) }).strict();
export type InvitesFile = z.infer<typeof InvitesFile>;

/** `<state>/crew/status.json`, written by the running bridge: who is connected, when each was last seen. */
export const CrewStatusFile = z.object({ version: z.literal(1), run: z.string(), members: z.record(z.string(), z.object({ connected: z.boolean(), lastSeen: z.number().nullable(), version: z.string().nullable() }).strict()) }).strict();
export type CrewStatusFile = z.infer<typeof CrewStatusFile>;

/** One machine of the crew as the phone sees it (`GET /api/crew`). */
export const CrewMachineView = z
  .object({
    name: MemberName,
    role: z.enum(['lead', 'member']),
    version: z.string(),
    /** Connected to the lead now (the lead itself: always). */
    reachable: z.boolean(),
    lastSeen: z.number().nullable(),
    listen: z.string(),
    you: z.boolean(),
  })
  .strict();
export type CrewMachineView = z.infer<typeof CrewMachineView>;

/** `GET /api/crew`: this machine's crew, or `{crew: null}` when it is in none. */
export const CrewView = z.union([
  z.object({ crew: z.null() }).strict(),
  z.object({ crew: CrewId, role: z.enum(['lead', 'member']), machines: z.array(CrewMachineView) }).strict(),
]);
export type CrewView = z.infer<typeof CrewView>;
