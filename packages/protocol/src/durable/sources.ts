import { z } from 'zod';

/**
 * `sources.json` in the config dir: the durable agents this bridge attaches, by name. Written
 * by `collie durable add|remove` (0600, atomically), read by the bridge whenever it changes.
 *
 * @example
 * { "agents": [ { "name": "desk", "socket": "/run/user/1000/desk.sock" },
 *               { "name": "nerve", "url": "https://nerve.example.net", "token": "…" } ] }
 */
export const SourceName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/, 'a name is 1 to 40 letters, digits, _ . or -, starting with a letter or digit');

export const Source = z.union([
  z.object({ name: SourceName, socket: z.string().min(1).max(1000) }).strict(),
  z.object({ name: SourceName, url: z.string().min(1).max(2000), token: z.string().min(1).max(1000).optional() }).strict(),
]);
export type Source = z.infer<typeof Source>;

export const SourcesFile = z.object({ agents: z.array(Source).max(100) }).strict();
export type SourcesFile = z.infer<typeof SourcesFile>;

/** Where to reach a source, or why it is refused (in words for the phone and the CLI). */
export type SourceTarget =
  | { ok: true; kind: 'socket'; path: string; local: true }
  | { ok: true; kind: 'url'; url: string; tls: boolean; local: boolean; token: string | null }
  | { ok: false; reason: string };

const LOOPBACK = /^(127\.0\.0\.1|localhost|\[::1\])$/i;

/**
 * A socket is local; a URL is local on 127.0.0.1, localhost or [::1]. Plain http only on
 * loopback; a remote agent only over https and with a bearer token.
 */
export function sourceTarget(s: Source): SourceTarget {
  if ('socket' in s) {
    return s.socket.startsWith('/') ? { ok: true, kind: 'socket', path: s.socket, local: true } : { ok: false, reason: 'a socket path must be absolute' };
  }
  const m = /^(https?):\/\/([^/?#@\s]+?)(?::(\d{1,5}))?(\/[^\s]*)?$/i.exec(s.url);
  if (!m) return { ok: false, reason: `not a URL: ${s.url.slice(0, 100)}` };
  const tls = m[1]!.toLowerCase() === 'https';
  const local = LOOPBACK.test(m[2]!);
  if (!tls && !local) return { ok: false, reason: 'plain http:// is only for 127.0.0.1 or localhost; a remote durable agent needs https://' };
  if (!local && !s.token) return { ok: false, reason: 'a remote durable agent needs a token' };
  return { ok: true, kind: 'url', url: s.url.replace(/\/+$/, ''), tls, local, token: s.token ?? null };
}
