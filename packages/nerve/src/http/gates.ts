/**
 * The same Host and origin gates as the bridge (packages/bridge/src/http/security.ts; Nerve may
 * not import the bridge): a Host allow-list against DNS rebinding, and a same-origin gate.
 */

/** Loopback names at Nerve's port. */
export function loopbackHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

export function hostAllowed(host: string | undefined | null, allowed: ReadonlySet<string>): boolean {
  return !!host && allowed.has(host.toLowerCase());
}

/** A browser's Origin must be this very host; with none, Sec-Fetch-Site must not be cross-site. */
export function originAllowed(origin: string | undefined | null, fetchSite: string | undefined | null, host: string | undefined | null): boolean {
  if (origin !== undefined && origin !== null) {
    let url: URL;
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
