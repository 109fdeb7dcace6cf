/**
 * Which push endpoints the bridge may post to. A subscription comes from a phone, so its
 * endpoint is an address the bridge will connect to: only `https://` on a public host name,
 * as every browser's push service is (`fcm.googleapis.com`, `updates.push.services.mozilla.com`,
 * `web.push.apple.com`). No IP literal in any spelling, no `localhost`, no single-label or
 * local-only name. The bridge also refuses, when it connects, a name that resolves to a private
 * address (`endpoint-lookup.ts`). Pure.
 */

/** Suffixes of names that never lead to a public push service. */
const LOCAL_SUFFIXES = ['localhost', 'local', 'internal', 'intranet', 'lan', 'home', 'corp', 'private', 'home.arpa', 'arpa', 'test', 'example', 'invalid', 'onion'];

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The host of a URL (as WHATWG `URL` gives it: IPv4 in any spelling becomes dotted decimal, IPv6 is bracketed), loopback or not. */
function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Why `endpoint` may not be pushed to, or null when it may. `loopback`: a test's stand-in push
 * service on loopback is let in (set only in code by tests, never from a phone or config).
 *
 * @example
 * pushEndpointProblem('https://fcm.googleapis.com/fcm/send/abc'); // null
 * pushEndpointProblem('https://127.0.0.1:8443/push'); // 'the endpoint is an IP address, …'
 */
export function pushEndpointProblem(endpoint: string, o: { loopback?: boolean } = {}): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'the endpoint is not a URL';
  }
  if (url.protocol !== 'https:') return 'a push service is reached over https';
  if (url.username || url.password) return 'the endpoint carries a user name or password';
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (o.loopback && isLoopbackHost(host)) return null;
  if (host.startsWith('[') || /^[\d.]+$/.test(host) || /^0x/i.test(host)) return 'the endpoint is an IP address, not a push service\'s host name';
  const labels = host.split('.');
  if (labels.length < 2) return 'the endpoint\'s host is a single-label (local) name';
  if (!labels.every((l) => LABEL.test(l)) || /^\d+$/.test(labels[labels.length - 1] ?? '')) return 'the endpoint\'s host is not a DNS name';
  if (LOCAL_SUFFIXES.some((s) => host === s || host.endsWith(`.${s}`))) return 'the endpoint\'s host is a local name';
  return null;
}
