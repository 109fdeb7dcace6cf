/**
 * Walky talky across a crew (docs/walky.md, "Across a crew"): what a member posts to its lead,
 * what the lead posts to the member that owns the pane, and the outcomes that come back. These
 * ride the crew listener's signed HTTPS routes (`/crew/v1/walky/…`); every request is also
 * signed as a crew request. Portable: no `node:*`.
 */
import { z } from 'zod';
import { CertificateDer, CrewId, MemberName } from './crew';
import { MessageId, WalkyAddress, WalkyMessage, WalkySender, WalkyState, WalkyTarget } from './walky';
import { WalkySkipped } from './walky-phone';
import { WALKY_MAX_BODY } from './walky-words';

/** The first version whose bridge carries walky across a crew; an older member or lead refuses. */
export const WALKY_CREW_SINCE = '0.1.0';

/** A lead gives each machine this long to take a broadcast (and a single message) before it says so. */
export const CREW_WALKY_MACHINE_MS = 8_000;

/** A member keeps an outcome it reports this long at most, until the lead acks it. */
export const CREW_OUTCOME_KEEP_MS = 10 * 60_000;

/**
 * One message as its origin machine built and signed it. `origin` is the machine's crew name
 * (the lead's own name when the lead is the origin); `to` the address as asked (with its token).
 */
export const WalkyEnvelope = z
  .object({
    v: z.literal(1),
    id: MessageId,
    at: z.number().int().nonnegative(),
    origin: MemberName,
    from: WalkySender,
    to: WalkyAddress,
    replyTo: MessageId.nullable(),
    body: z.string().max(WALKY_MAX_BODY),
    /** One pane's message of a broadcast: the broadcast's own id, kept in each machine's record (absent otherwise, so older envelopes hash the same). */
    broadcast: MessageId.optional(),
  })
  .strict();
export type WalkyEnvelope = z.infer<typeof WalkyEnvelope>;

/** An Ed25519 signature, base64url (64 bytes → 86 characters). */
export const Ed25519Sig = z.string().regex(/^[A-Za-z0-9_-]{86}$/, 'a signature is 64 bytes in base64url');

/** `POST /crew/v1/walky/send` (member → lead): one message, signed by its origin. */
export const CrewWalkySend = z.object({ envelope: WalkyEnvelope, sig: Ed25519Sig }).strict();
export type CrewWalkySend = z.infer<typeof CrewWalkySend>;

/**
 * One message the lead passes on: the origin's envelope and signature, the origin's certificate
 * (absent when the lead is the origin) and the lead's own word over all of it and the pane.
 */
export const CrewWalkyItem = z
  .object({
    envelope: WalkyEnvelope,
    sig: Ed25519Sig,
    cert: CertificateDer.optional(),
    /** The pane on the receiving member, by its own id there. */
    pane: z.string().min(1).max(200),
    lead_sig: Ed25519Sig,
  })
  .strict();
export type CrewWalkyItem = z.infer<typeof CrewWalkyItem>;

/** `POST /crew/v1/walky/deliver` (lead → member): one message, or one per pane of a broadcast. */
export const CrewWalkyDeliver = z.object({ items: z.array(CrewWalkyItem).min(1).max(500) }).strict();
export type CrewWalkyDeliver = z.infer<typeof CrewWalkyDeliver>;

/** The receipts as they stand, one per item (or per message of `send`). */
export const CrewWalkyReceipts = z.object({ messages: z.array(WalkyMessage) }).strict();
export type CrewWalkyReceipts = z.infer<typeof CrewWalkyReceipts>;

/** One receipt change, reported until acked. */
export const CrewWalkyOutcome = z
  .object({ id: MessageId, state: WalkyState, reason: z.string().max(200).nullable(), at: z.number().int().nonnegative() })
  .strict();
export type CrewWalkyOutcome = z.infer<typeof CrewWalkyOutcome>;

/** `POST /crew/v1/walky/outcomes` (either way): receipt changes; the answer acks them by id. */
export const CrewWalkyOutcomes = z.object({ outcomes: z.array(CrewWalkyOutcome).min(1).max(500) }).strict();
export type CrewWalkyOutcomes = z.infer<typeof CrewWalkyOutcomes>;
export const CrewWalkyAck = z.object({ acked: z.array(MessageId) }).strict();
export type CrewWalkyAck = z.infer<typeof CrewWalkyAck>;

/** `POST /crew/v1/walky/messages` (lead → member): the messages to or from one of its panes (its own id), answered as `CrewWalkyReceipts`. */
export const CrewWalkyRead = z.object({ pane: z.string().min(1).max(200) }).strict();
export type CrewWalkyRead = z.infer<typeof CrewWalkyRead>;

/** `POST /crew/v1/walky/targets` (member → lead): the panes a member's broadcast reaches on the other machines (`all`, or one machine's crew name or the crew id). */
export const CrewWalkyTargetsAsk = z.object({ machine: z.union([z.literal('all'), CrewId, MemberName]) }).strict();
export type CrewWalkyTargetsAsk = z.infer<typeof CrewWalkyTargetsAsk>;

/** The lead's answer: each agent pane as the lead shows it (`to.member` its machine), the refusal that holds for its whole machine now, and the shell panes skipped. */
export const CrewWalkyTargets = z
  .object({
    panes: z.array(z.object({ to: WalkyTarget, refused: z.string().max(200).nullable() }).strict()).max(2000),
    skipped: z.array(WalkySkipped).max(2000),
  })
  .strict();
export type CrewWalkyTargets = z.infer<typeof CrewWalkyTargets>;

/** `a.b.c` compared as numbers; a version that is not one (`test`, `dev`) counts as new. Pure. */
export function versionBefore(version: string, since: string): boolean {
  const parse = (v: string) => (/^\d+\.\d+\.\d+/.test(v) ? v.split(/[.+-]/).slice(0, 3).map(Number) : null);
  const a = parse(version);
  const b = parse(since);
  if (!a || !b) return false;
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}
