import { createHash } from 'node:crypto';
import type { Agent } from 'node:https';
import webpush from 'web-push';
import type { PushSubscriptionJson } from '@collie/protocol';

/**
 * The only file that speaks Web Push: the `web-push` library encrypts (RFC 8291, aes128gcm),
 * signs the VAPID JWT (RFC 8292) and posts to the push service. Outcomes come back as values.
 */

export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  const k = webpush.generateVAPIDKeys();
  return { publicKey: k.publicKey, privateKey: k.privateKey };
}

export interface Vapid {
  subject: string;
  publicKey: string;
  privateKey: string;
}

/** How a message rides: Apple and Mozilla both want a TTL; `high` wakes a sleeping phone. */
export interface PushOptions {
  /** Seconds the push service keeps it for a phone that is offline. */
  ttl: number;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
  /** Coalescing key: a later message with the same topic replaces one still queued. */
  topic: string;
}

export type PushOutcome =
  | { ok: true; status: number; tries: number }
  /** 404 or 410: the subscription is gone for good; drop it. */
  | { ok: false; gone: true; status: number; tries: number }
  | { ok: false; gone: false; status: number | null; tries: number; message: string };

/** A VAPID JWT lives 12 hours; one is made per push service origin and used for 11 of them. */
const JWT_SECONDS = 12 * 3600;
const JWT_REUSE_MS = 11 * 3600_000;

/**
 * The `Authorization` header per push service origin (RFC 8292: `aud` is the origin), signed
 * once and reused: signing anew for every message cost a third of a push's time.
 */
export class VapidHeaders {
  private readonly made = new Map<string, { header: string; until: number }>();

  constructor(private readonly vapid: Vapid) {}

  for(endpoint: string, now: number): string {
    const origin = new URL(endpoint).origin;
    const have = this.made.get(origin);
    if (have && have.until > now) return have.header;
    const { Authorization } = webpush.getVapidHeaders(origin, this.vapid.subject, this.vapid.publicKey, this.vapid.privateKey, 'aes128gcm', Math.floor(now / 1000) + JWT_SECONDS);
    if (this.made.size > 100) this.made.clear();
    this.made.set(origin, { header: Authorization, until: now + JWT_REUSE_MS });
    return Authorization;
  }
}

export interface DeliverDeps {
  vapid: VapidHeaders;
  /** An https agent (keep-alive; a test's stand-in adds its CA). */
  agent?: Agent;
  /** Waits between tries of a 429 or 5xx, in ms, before `Retry-After` is considered. */
  backoff: readonly number[];
  sleep: (ms: number) => Promise<void>;
  timeoutMs: number;
  /** Told before each wait for another try: why the last failed, and how long it waits. */
  onRetry?: (why: string, waitMs: number) => void;
}

/** A topic a push service takes: at most 32 characters of base64url (RFC 8030 §5.4). */
export function topicOf(tag: string): string {
  return createHash('sha256').update(tag).digest('base64url').slice(0, 32);
}

/** `Retry-After` in seconds or an HTTP date, as ms; capped so one push never waits a minute. */
function retryAfter(header: unknown, now: number): number | null {
  if (typeof header !== 'string') return null;
  const secs = /^\d+$/.test(header.trim()) ? Number(header) * 1000 : Date.parse(header) - now;
  return Number.isFinite(secs) ? Math.max(0, Math.min(secs, 30_000)) : null;
}

/**
 * Send one payload to one subscription. 429 and 5xx are tried again after each wait of
 * `backoff` (or the service's `Retry-After`, when longer); 404 and 410 mean gone.
 */
export async function deliver(sub: PushSubscriptionJson, payload: string, o: PushOptions, d: DeliverDeps): Promise<PushOutcome> {
  for (let tries = 1; ; tries++) {
    try {
      const res = await webpush.sendNotification({ endpoint: sub.endpoint, keys: sub.keys }, payload, {
        headers: { Authorization: d.vapid.for(sub.endpoint, Date.now()) },
        TTL: o.ttl,
        urgency: o.urgency,
        topic: o.topic,
        contentEncoding: 'aes128gcm',
        timeout: d.timeoutMs,
        ...(d.agent ? { agent: d.agent } : {}),
      });
      return { ok: true, status: res.statusCode, tries };
    } catch (err) {
      const status = err instanceof webpush.WebPushError ? err.statusCode : null;
      if (status === 404 || status === 410) return { ok: false, gone: true, status, tries };
      // A refused connection or a reset is worth another try too; a bad key of ours is not.
      // A private address behind a public name (`endpoint-lookup.ts`) is not.
      const code = (err as { code?: unknown }).code;
      const network = status === null && typeof code === 'string' && code !== 'ECOLLIEPRIVATE';
      const again = status === 429 || (status !== null && status >= 500) || network;
      const wait = d.backoff[tries - 1];
      if (!again || wait === undefined) {
        return { ok: false, gone: false, status, tries, message: err instanceof Error ? err.message : String(err) };
      }
      const after = err instanceof webpush.WebPushError ? retryAfter(err.headers['retry-after'], Date.now()) : null;
      d.onRetry?.(status !== null ? `HTTP ${status}` : String(code), Math.max(wait, after ?? 0));
      await d.sleep(Math.max(wait, after ?? 0));
    }
  }
}
