import { z } from 'zod';
import { Harness, PaneState } from './pane';
import { MESSAGE_ID, WALKY_MAX_BODY, WALKY_WAIT_MS } from './walky-limits';

/**
 * Walky talky: the lines on `<state>/walky/sock` (one JSON request line, one JSON answer
 * line, per connection), the records of `<state>/walky/log.jsonl`, and the receipt words the
 * CLI and the phone show. Fields a crew needs later (`member`, `signature`, `cert`) are
 * optional now, so a record written today parses then without a migration.
 */

/** A message id: `wt_` and 12 characters. */
export const MessageId = z.string().regex(MESSAGE_ID, 'a message id is wt_ and 12 letters or digits');
export type MessageId = z.infer<typeof MessageId>;


/** An address as typed: `<member>/<pane>[#token]`; the bridge parses it (see walky/address.ts). */
export const WalkyAddress = z.string().min(1).max(200);

const asked = {
  v: z.literal(1),
  /**
   * The caller's process id. Not trusted: the bridge checks in /proc that this process holds
   * a socket and belongs to this user, then walks its ancestry up to a pane's process.
   */
  pid: z.number().int().positive().max(4_194_304),
};
/** A body as sent: the limit is checked after cleaning, so the raw text may be a little longer. */
const RawBody = z.string().max(WALKY_MAX_BODY * 4);
/**
 * How long the caller still waits for the answer, in ms: the bridge answers with the receipt it
 * has by then (never later than its own 15 s). A request asked again after a restart has less
 * of its wait left than a new one.
 */
const WaitMs = z.number().int().min(0).max(WALKY_WAIT_MS);

export const WalkyRequest = z.discriminatedUnion('verb', [
  z.object({ verb: z.literal('who'), ...asked }).strict(),
  z.object({ verb: z.literal('send'), ...asked, to: WalkyAddress, body: RawBody, id: MessageId.optional(), wait_ms: WaitMs.optional() }).strict(),
  z.object({ verb: z.literal('reply'), ...asked, to_id: MessageId, body: RawBody, id: MessageId.optional(), wait_ms: WaitMs.optional() }).strict(),
  z.object({ verb: z.literal('inbox'), ...asked, id: MessageId.optional(), all: z.boolean().optional(), keep: z.boolean().optional() }).strict(),
  z.object({ verb: z.literal('status'), ...asked, id: MessageId }).strict(),
]);
export type WalkyRequest = z.infer<typeof WalkyRequest>;

/**
 * Receipt states. `accepted`: logged, not typed yet (queued or held). `delivered`: typed into
 * the pane. `inbox-only`: kept in the inbox, not typed (a draft, a busy pane). `refused`: not
 * sent. `unknown`: may have arrived; it will not be sent again.
 */
export const WalkyState = z.enum(['accepted', 'delivered', 'inbox-only', 'refused', 'unknown']);
export type WalkyState = z.infer<typeof WalkyState>;

/**
 * How the sender was known. `local`: this machine built the message itself. `origin`: the
 * sender's own key was checked. `lead`: the lead checked it. `none`: no check on record.
 */
export const WalkyVerified = z.enum(['origin', 'lead', 'local', 'none']);
export type WalkyVerified = z.infer<typeof WalkyVerified>;

/** Who sent a message, as the bridge proved it (never as the request said). */
export const WalkySender = z.object({
  kind: z.enum(['agent', 'operator']),
  /** An agent's pane as `who` lists it, with its token. */
  address: z.string().optional(),
  /** The bridge's pane id (`<server>:%7`): where a reply goes. */
  paneId: z.string().optional(),
  token: z.string().optional(),
  harness: Harness.optional(),
  label: z.string().optional(),
  /** An operator's device (`phone-…`). */
  device: z.string().optional(),
  /** Crew: the member the sender's machine is. */
  member: z.string().optional(),
});
export type WalkySender = z.infer<typeof WalkySender>;

/** The pane a message is for. `pane` names it without the token, as receipts do. */
export const WalkyTarget = z.object({
  paneId: z.string(),
  pane: z.string(),
  address: z.string(),
  token: z.string(),
  harness: Harness,
  label: z.string(),
  member: z.string().optional(),
});
export type WalkyTarget = z.infer<typeof WalkyTarget>;

/** One message as the log keeps it, with its receipt state. */
export const WalkyMessage = z.object({
  v: z.literal(1),
  id: MessageId,
  at: z.number(),
  from: WalkySender,
  /** Null when the message was refused before a pane was found. */
  to: WalkyTarget.nullable(),
  /** The address as the sender typed it. */
  asked: z.string(),
  replyTo: MessageId.nullable(),
  /** Cleaned; empty for a refused message (refusals keep no body). */
  body: z.string(),
  state: WalkyState,
  /** Why a message was not sent or not typed, in words (`draft present`, `pane busy`). */
  reason: z.string().nullable(),
  verified: WalkyVerified,
  read: z.boolean(),
  updatedAt: z.number(),
  /** One pane's record of a broadcast: the broadcast's own id, which `status` answers for every pane. */
  broadcast: MessageId.optional(),
  /** Crew, later: a signature over the message and the signer's certificate. */
  signature: z.string().optional(),
  cert: z.string().optional(),
});
export type WalkyMessage = z.infer<typeof WalkyMessage>;

/**
 * One line of a broadcast's status: a pane (`<member>/<pane>`, no token) and its receipt, or
 * `<member>/all` for a machine that refused the whole broadcast (`id` absent then).
 */
export const BroadcastLine = z.object({
  pane: z.string(),
  id: MessageId.optional(),
  member: z.string().optional(),
  state: WalkyState,
  reason: z.string().nullable(),
  verified: WalkyVerified,
  /** The machine that vouched for the sender, for "signed by". */
  by: z.string().optional(),
});
export type BroadcastLine = z.infer<typeof BroadcastLine>;

/** One row of `who`. */
export const WhoRow = z.object({
  address: z.string(),
  machine: z.string(),
  harness: Harness,
  label: z.string(),
  state: z.union([PaneState, z.literal('unreachable')]),
  you: z.boolean(),
});
export type WhoRow = z.infer<typeof WhoRow>;

export const WalkyErrorCode = z.enum(['bad_request', 'bad_json', 'too_large', 'unknown_id', 'not_in_pane', 'not_proved', 'refused', 'internal']);
export type WalkyErrorCode = z.infer<typeof WalkyErrorCode>;

export const WalkyAnswer = z.discriminatedUnion('verb', [
  z.object({
    ok: z.literal(true),
    verb: z.literal('who'),
    machine: z.string(),
    you: z.string().nullable(),
    panes: z.array(WhoRow),
    /** On a crew member: the lead's name, for the line that sends the reader to it. */
    lead: z.string().optional(),
  }),
  z.object({ ok: z.literal(true), verb: z.literal('send'), message: WalkyMessage }),
  z.object({ ok: z.literal(true), verb: z.literal('inbox'), messages: z.array(WalkyMessage) }),
  /** One message's receipt (`message`), or a broadcast's: its id and one line per pane (`broadcast`). */
  z.object({ ok: z.literal(true), verb: z.literal('status'), message: WalkyMessage.optional(), broadcast: z.object({ id: MessageId, panes: z.array(BroadcastLine) }).optional() }),
  z.object({ ok: z.literal(false), verb: z.literal('error'), error: z.object({ code: WalkyErrorCode, message: z.string() }) }),
]);
export type WalkyAnswer = z.infer<typeof WalkyAnswer>;

/** `walky.updated`: a message was logged or its receipt changed (bodies masked). */
export const WalkyUpdatedEvent = { type: z.literal('walky.updated'), message: WalkyMessage };
