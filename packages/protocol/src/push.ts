import { z } from 'zod';

/**
 * Web Push: the subscriptions a phone hands the bridge, the push settings, and the payload
 * the service worker gets (encrypted by the push library, RFC 8291; the push service never
 * reads it). Payloads stay under {@link PUSH_PAYLOAD_MAX} bytes: what every push service takes.
 */

/** The largest payload push services accept (RFC 8291 leaves 4,096 octets of record). */
export const PUSH_PAYLOAD_MAX = 3_800;

const base64url = (min: number, max: number, what: string) =>
  z
    .string()
    .min(min, what)
    .max(max, what)
    .regex(/^[A-Za-z0-9_-]+=*$/, what);

/**
 * A browser's `PushSubscription.toJSON()`. The endpoint is the push service's https address;
 * plain http is taken only on loopback when the bridge is told to (a test stand-in).
 */
export const PushSubscriptionJson = z.object({
  endpoint: z.string().max(2048).url('the endpoint is not a URL'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    // An uncompressed P-256 point (65 bytes) and a 16-byte secret, base64url.
    p256dh: base64url(86, 90, 'p256dh is a base64url P-256 public key'),
    auth: base64url(21, 24, 'auth is a base64url 16-byte secret'),
  }),
});
export type PushSubscriptionJson = z.infer<typeof PushSubscriptionJson>;

/** What may push, and when not. Quiet hours are local "HH:MM" on the bridge's clock. */
export const PushPrefs = z.object({
  kinds: z.object({
    blocked: z.boolean(),
    finished: z.boolean(),
    durable: z.boolean(),
    messages: z.boolean(),
    /** A pane reached its usage limit ("… · resets 15:00"), withdrawn when it works again. */
    limit: z.boolean().default(true),
    /** "Ready again" at a limit's reset, when a send waits for it. */
    ready: z.boolean().default(true),
    /** A pane's context passed 90 %, once per session. Off by default. */
    context: z.boolean().default(false),
  }),
  quiet: z
    .object({
      from: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time is HH:MM'),
      to: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time is HH:MM'),
    })
    .nullable(),
  /** Answer from the lock screen: a permission push carries Deny and Open (and Allow when the whole ask is in its text). Off by default. */
  lockScreen: z.boolean().default(false),
});
export type PushPrefs = z.infer<typeof PushPrefs>;

export const DEFAULT_PUSH_PREFS: PushPrefs = { kinds: { blocked: true, finished: false, durable: true, messages: true, limit: true, ready: true, context: false }, quiet: null, lockScreen: false };

/** `GET /api/push`: the bridge's public VAPID key and where this device stands. */
export const PushStatus = z.object({
  /** The application server key a browser subscribes with (base64url), or null before `collie push keys`. */
  publicKey: z.string().nullable(),
  /** Subscriptions of the asking device. */
  subscribed: z.number().int().nonnegative(),
  prefs: PushPrefs,
});
export type PushStatus = z.infer<typeof PushStatus>;

/** `POST /api/push/subscribe` and `/unsubscribe`. */
export const PushSubscribeRequest = z.object({ subscription: PushSubscriptionJson }).strict();
export const PushUnsubscribeRequest = z.object({ endpoint: z.string().max(2048) }).strict();
/** `POST /api/push/prefs`. */
export const PushPrefsRequest = z.object({ prefs: PushPrefs }).strict();
/** `POST /api/push/presence`: the app is open and visible now (or just went away). */
export const PushPresenceRequest = z.object({ visible: z.boolean() }).strict();
/** `POST /api/push/test`. */
export const PushTestRequest = z.object({}).strict();

/** The answer of `POST /api/push/test`: how many subscriptions took it. */
export const PushTestResult = z.object({ sent: z.number().int().nonnegative(), failed: z.number().int().nonnegative() });
export type PushTestResult = z.infer<typeof PushTestResult>;

/**
 * What a permission push lets the lock screen answer: the pane, the card's signature, and the
 * option numbers of Deny and of Allow (null when the notification cannot show the whole ask,
 * so nobody approves what they cannot read). "Always allow" is never offered outside the app.
 */
export const PushAnswer = z.object({
  pane: z.string().min(1).max(300),
  signature: z.string().min(1).max(200),
  deny: z.number().int().positive().max(99),
  allow: z.number().int().positive().max(99).nullable(),
});
export type PushAnswer = z.infer<typeof PushAnswer>;

/**
 * The decrypted payload. `push.show`: a notification (a new `tag` replaces one with the same
 * tag); `push.withdraw`: close the notification with that tag (the question was answered).
 */
export const PushPayload = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('push.show'),
    v: z.literal(1),
    kind: z.enum(['blocked', 'finished', 'durable', 'flood', 'reminder', 'test', 'limit', 'ready', 'context']),
    tag: z.string().max(200),
    title: z.string().max(200),
    body: z.string().max(1000),
    /** The app's own hash route to open on a tap (`#/pane/<id>`). */
    url: z.string().max(600),
    at: z.number(),
    /** Lock-screen answers (the setting on): the card's signature and option numbers, posted as the card would. */
    answer: PushAnswer.optional(),
  }),
  z.object({ type: z.literal('push.withdraw'), v: z.literal(1), tag: z.string().max(200), at: z.number() }),
]);
export type PushPayload = z.infer<typeof PushPayload>;

/**
 * Title of a pane's question push (the durable agents page's words). On a crew's lead, a
 * member's pane adds the member as the dashboard's line 2 does: "Permission needed in api on workshop".
 */
export const paneAskTitle = (pane: string, member?: string) => `Permission needed in ${pane}${member ? ` on ${member}` : ''}`;
/** Title of a finished turn's push; a member's pane on the lead names the member too. */
export const paneTurnTitle = (pane: string, member?: string) => `Turn finished in ${pane}${member ? ` on ${member}` : ''}`;
/** Title of a usage-limit push: "Usage limit reached on shop-api (Claude Code) · resets 15:00". */
export const paneLimitTitle = (pane: string, agent: string, resets: string | null) => `Usage limit reached on ${pane} (${agent})${resets ? ` · resets ${resets}` : ''}`;
/** Title of the push at a limit's reset when a send waits for it. */
export const paneReadyTitle = (pane: string) => `Ready again: ${pane}`;
/** Title of the context push: "Context at 90 % in shop-api". */
export const paneContextTitle = (pane: string, percent: number) => `Context at ${percent} % in ${pane}`;
/** The one push past the hourly cap, for panes. */
export const paneFloodTitle = (host: string) => `Agents on ${host} are raising many asks`;
