/**
 * The address a phone can open: `COLLIE_PUBLIC_URL`, else the https name `tailscale serve`
 * gives this port. The only code that speaks tailscale.
 */
import { execFile } from 'node:child_process';
import { z } from 'zod';

/** The part of `tailscale serve status --json` (a ServeConfig) that says what proxies where. */
const WebConfig = z.record(z.string(), z.object({ Handlers: z.record(z.string(), z.object({ Proxy: z.string().optional() }).loose()).optional() }).loose());
const ServeConfig = z.object({ Web: WebConfig.optional() }).loose();
const ServeStatus = ServeConfig.extend({ Foreground: z.record(z.string(), ServeConfig).optional() }).loose();

/** `http://127.0.0.1:8787`, `localhost:8787`, `http://[::1]:8787` … → 8787 when on loopback. */
function loopbackPort(proxy: string): number | null {
  const m = /^(?:https?:\/\/)?(127\.\d+\.\d+\.\d+|localhost|\[::1\]):(\d{1,5})\/?$/i.exec(proxy.trim());
  return m ? Number(m[2]) : null;
}

/**
 * The https URL under which tailscale serves `port` at its root, from the status JSON (the
 * background config, or a foreground `tailscale serve` session). Only a handler at `/` counts:
 * the app asks for `/api/…`, which a path prefix would break.
 */
export function tailscaleUrlFromStatus(json: unknown, port: number): string | null {
  const parsed = ServeStatus.safeParse(json);
  if (!parsed.success) return null;
  const configs = [parsed.data, ...Object.values(parsed.data.Foreground ?? {})];
  for (const cfg of configs) {
    for (const [hostPort, web] of Object.entries(cfg.Web ?? {})) {
      const proxy = web.Handlers?.['/']?.Proxy;
      if (proxy === undefined || loopbackPort(proxy) !== port) continue;
      const m = /^([a-z0-9.-]+):(\d{1,5})$/i.exec(hostPort);
      if (!m) continue;
      return m[2] === '443' ? `https://${m[1]!.toLowerCase()}` : `https://${m[1]!.toLowerCase()}:${m[2]}`;
    }
  }
  return null;
}

export type Exec = (file: string, args: string[], timeoutMs: number) => Promise<string>;

const exec: Exec = (file, args, timeoutMs) =>
  new Promise((resolve, reject) => execFile(file, args, { timeout: timeoutMs }, (err, stdout) => (err ? reject(err) : resolve(stdout))));

/** Asks the local tailscale; null when it is not installed, not running or not serving this port. */
export async function tailscaleServeUrl(port: number, run: Exec = exec): Promise<string | null> {
  try {
    return tailscaleUrlFromStatus(JSON.parse(await run('tailscale', ['serve', 'status', '--json'], 2000)), port);
  } catch {
    return null;
  }
}

export interface PublicUrl {
  url: string | null;
  source: 'COLLIE_PUBLIC_URL' | 'tailscale serve' | null;
}

export async function publicUrlFor(port: number, configured: string | null, run?: Exec): Promise<PublicUrl> {
  if (configured) return { url: configured.replace(/\/+$/, ''), source: 'COLLIE_PUBLIC_URL' };
  const ts = await tailscaleServeUrl(port, run);
  return ts ? { url: ts, source: 'tailscale serve' } : { url: null, source: null };
}

/** The one line printed when no address for a phone is known. */
export function publicUrlHint(port: number): string {
  return `No QR code: no address a phone can open is known. Run \`tailscale serve --bg ${port}\` (and add the name to COLLIE_ALLOWED_HOSTS), or set COLLIE_PUBLIC_URL to your proxy's https address.`;
}

/** The pairing link for a token under a base URL; the token rides in the hash, which no server sees. */
export function pairingLink(base: string, token: string): string {
  return `${base.replace(/\/+$/, '')}/#/pair/${token}`;
}
