/**
 * The Host and origin gates every HTTP server of Collie passes (the bridge and Nerve share this
 * one implementation): a Host allow-list against DNS rebinding, and a same-origin gate.
 * Portable: plain functions over header values.
 */

/** The WHATWG URL every runtime of ours has (Node and the browser); the protocol's lib names no host types. */
declare const URL: new (input: string) => { protocol: string; host: string };

/** Host header values a server answers to: loopback names at its port, plus the user's own. */
export function allowedHosts(port: number, extra: readonly string[]): Set<string> {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  // A name from COLLIE_ALLOWED_HOSTS (a tailnet name behind `tailscale serve`, a proxy)
  // arrives without a port on 443, or with the port the proxy forwards from.
  for (const h of extra) if (h.trim()) hosts.add(h.trim().toLowerCase());
  return hosts;
}

export function hostAllowed(host: string | undefined | null, allowed: ReadonlySet<string>): boolean {
  if (!host) return false;
  const h = host.toLowerCase();
  if (allowed.has(h)) return true;
  const bare = h.replace(/:\d+$/, '');
  return bare !== h && allowed.has(bare);
}

/**
 * A browser names the page that made a request in `Origin` (always on POST and WebSocket
 * upgrades). It must be this very host; `null` (sandboxed frames, file: pages) is refused.
 * With no Origin, `Sec-Fetch-Site` must not say the request came from another site.
 * Non-browser clients send neither and cannot be driven by a hostile page.
 */
export function originAllowed(origin: string | undefined | null, fetchSite: string | undefined | null, host: string | undefined | null): boolean {
  if (origin !== undefined && origin !== null) {
    let url: { protocol: string; host: string };
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    return !!host && url.host.toLowerCase() === host.toLowerCase();
  }
  return fetchSite === undefined || fetchSite === null || fetchSite === 'same-origin' || fetchSite === 'none';
}
