import { z } from 'zod';
import { MessageId, WalkyAddress, WalkyMessage } from './walky';
import { WALKY_MAX_BODY } from './walky-limits';

/**
 * Walky talky on the phone: the operator's own messages, sent through `/api/walky/…` behind
 * the device gate. The device names the sender; the bridge builds the message itself, so its
 * receipt says `local` ("this machine").
 */

/** A body as the phone sends it; the 4,000-character limit is checked after cleaning. */
const PhoneBody = z.string().max(WALKY_MAX_BODY * 4);

/**
 * `POST /api/walky/send`: to one pane (`to`, the address with its token, so a replaced pane
 * is refused), or as a reply to a logged message (`reply_to`: the sender's logged pane).
 */
export const WalkyPhoneSend = z.union([
  z.object({ to: WalkyAddress, body: PhoneBody, id: MessageId.optional() }).strict(),
  /** `to` counts only when this machine's log does not hold `reply_to`: on a lead, a member's pane address takes the reply to that member, whose log finds the pane. */
  z.object({ reply_to: MessageId, to: WalkyAddress.optional(), body: PhoneBody, id: MessageId.optional() }).strict(),
]);
export type WalkyPhoneSend = z.infer<typeof WalkyPhoneSend>;

/** `POST /api/walky/broadcast`: every agent pane of `member` (absent or `all`: every machine). */
export const WalkyBroadcastRequest = z.object({ body: PhoneBody, member: z.string().min(1).max(63).optional() }).strict();
export type WalkyBroadcastRequest = z.infer<typeof WalkyBroadcastRequest>;

/** Refusals counted per reason (`<state>/walky/refusals.json`): no body, no sender. */
export const WalkyRefusalCounts = z.record(z.string(), z.number().int().nonnegative());
export type WalkyRefusalCounts = z.infer<typeof WalkyRefusalCounts>;

/** `GET /api/walky/messages[?pane=<id>]`: newest first, bodies masked. */
export const WalkyMessagesAnswer = z.object({ machine: z.string(), messages: z.array(WalkyMessage), refusals: WalkyRefusalCounts });
export type WalkyMessagesAnswer = z.infer<typeof WalkyMessagesAnswer>;

/** `POST /api/walky/send`: the receipt as it stands; later changes come as `walky.updated`. */
export const WalkySendAnswer = z.object({ message: WalkyMessage });
export type WalkySendAnswer = z.infer<typeof WalkySendAnswer>;

/** A pane a broadcast leaves out (a shell never receives a message). */
export const WalkySkipped = z.object({ address: z.string(), label: z.string() });
export type WalkySkipped = z.infer<typeof WalkySkipped>;

/**
 * `POST /api/walky/broadcast`: the broadcast's one id (`collie walky status <id>` and
 * `GET /api/walky/status?id=` answer for every pane), one receipt per target, the shells
 * skipped, the refusal counts.
 */
export const WalkyBroadcastAnswer = z.object({ machine: z.string(), id: MessageId, messages: z.array(WalkyMessage), skipped: z.array(WalkySkipped), refusals: WalkyRefusalCounts });
export type WalkyBroadcastAnswer = z.infer<typeof WalkyBroadcastAnswer>;

/** A message id anywhere in text (a header, a tool's output): `wt_` and 12 letters or digits. */
export const MESSAGE_ID_IN_TEXT = /\bwt_[a-z0-9]{12}\b/g;
