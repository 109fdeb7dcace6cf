import { execFileSync } from 'node:child_process';
import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { checkVapid } from './vapid-check';

/** The encrypted-content-encoding library the push library itself uses (RFC 8188); it ships no types. */
const { decrypt } = createRequire(import.meta.url)('http_ece') as {
  decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string }): Buffer;
};

/** A subscription as a browser hands it to the app (`PushSubscription.toJSON()`). */
export interface StandInSubscription {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

/** One push the stand-in took: decrypted with the subscription's keys, its VAPID JWT checked. */
export interface ReceivedPush {
  /** Which subscription (`subscribe()` numbers them from 0). */
  sub: number;
  /** The decrypted payload, as text and parsed when it is JSON. */
  text: string;
  json: unknown;
  ttl: number | null;
  urgency: string | null;
  topic: string | null;
  /** The VAPID public key that signed it. */
  key: string;
  at: number;
}

export interface PushServiceStandIn {
  /** Its origin, `https://127.0.0.1:<port>`. */
  url: string;
  /** The self-signed certificate a client must trust to reach it. */
  ca: string;
  /** A new browser subscription (its own P-256 key and 16-byte secret). */
  subscribe(): StandInSubscription;
  /** Pushes taken, in order. */
  readonly received: readonly ReceivedPush[];
  /** Requests refused (no or bad VAPID, undecryptable body), with why. */
  readonly refused: readonly string[];
  /** Every request's answer status, in order (retries included). */
  readonly statuses: readonly number[];
  /** The next requests to subscription `sub` get these statuses (e.g. `[429]`, `[410]`), then 201. */
  answerNext(sub: number, ...statuses: number[]): void;
  /** Resolves with the first push (taken so far or later) that `pick` accepts. */
  next(pick: (p: ReceivedPush) => boolean, ms?: number): Promise<ReceivedPush>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1 (openssl, as Debian ships it). */
function certificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'collie-push-cert-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A push service on loopback that speaks the real wire (RFC 8030): HTTPS, a VAPID JWT checked
 * against its key (RFC 8292), the aes128gcm body decrypted with the subscription's private key
 * and secret (RFC 8291). It answers 201, or what a test scripts (429, 410, 500 …).
 *
 * @example
 * await using pushes = await startPushService();
 * const sub = pushes.subscribe();
 * const p = await pushes.next((p) => p.sub === 0);
 */
export async function startPushService(): Promise<PushServiceStandIn> {
  const { key, cert } = certificate();
  const subs: { ecdh: ECDH; auth: string; queue: number[] }[] = [];
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  const statuses: number[] = [];
  const waiters = new Set<() => void>();
  let url = '';

  const answer = (res: ServerResponse, status: number, extra: Record<string, string> = {}) => {
    statuses.push(status);
    res.writeHead(status, extra).end();
  };
  const handle = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const m = /^\/push\/(\d+)$/.exec(req.url ?? '');
    const sub = m ? subs[Number(m[1])] : undefined;
    if (req.method !== 'POST' || !sub) return answer(res, 404);
    const scripted = sub.queue.shift();
    if (scripted !== undefined) return answer(res, scripted, scripted === 429 ? { 'retry-after': '0' } : {});
    const vapid = checkVapid(req.headers.authorization, url, Date.now());
    if (!vapid.ok) return refused.push(vapid.why), answer(res, 403);
    if (req.headers['content-encoding'] !== 'aes128gcm') return refused.push(`content-encoding ${req.headers['content-encoding']}`), answer(res, 415);
    if (req.headers.ttl === undefined) return refused.push('no TTL'), answer(res, 400);
    let text: string;
    try {
      text = decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth }).toString('utf8');
    } catch (err) {
      refused.push(`undecryptable: ${err instanceof Error ? err.message : String(err)}`);
      return answer(res, 400);
    }
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // a payload need not be JSON
    }
    const h = (n: string) => (typeof req.headers[n] === 'string' ? (req.headers[n] as string) : null);
    received.push({ sub: Number(m![1]), text, json, ttl: h('ttl') === null ? null : Number(h('ttl')), urgency: h('urgency'), topic: h('topic'), key: vapid.key, at: Date.now() });
    answer(res, 201, { location: `${url}/message/${received.length}` });
    for (const w of waiters) w();
  };

  const server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const close = () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())));
  return {
    url,
    ca: cert,
    subscribe() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16).toString('base64url');
      subs.push({ ecdh, auth, queue: [] });
      return { endpoint: `${url}/push/${subs.length - 1}`, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth } };
    },
    received,
    refused,
    statuses,
    answerNext: (sub, ...s) => void subs[sub]?.queue.push(...s),
    next(pick, ms = 60_000) {
      return new Promise((resolve, reject) => {
        const look = () => {
          const hit = received.find(pick);
          if (!hit) return false;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(hit);
          return true;
        };
        const check = () => void look();
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`push service: no matching push within ${ms} ms; took ${received.length}: ${received.map((r) => r.text.slice(0, 120)).join(' | ')}; refused: ${refused.join('; ')}`));
        }, ms);
        if (!look()) waiters.add(check);
      });
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
