/**
 * The push agent's DNS lookup: a push endpoint's host name must resolve to public addresses
 * only, checked as the connection is made (not before it, so a name that answers a public
 * address first and a private one later, DNS rebinding, gains nothing).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const V4 = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const;
const V6 = [
  // `::/96` holds `::`, `::1` and the old IPv4-compatible form.
  ['::', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 32], ['2001:db8::', 32],
  ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const;

const blocked = new BlockList();
for (const [net, bits] of V4) blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of V6) blocked.addSubnet(net, bits, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted IPv4 read), else null. */
function groups6(ip: string): number[] | null {
  let text = ip.replace(/%.*$/, '');
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = text.slice(0, dotted.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail, more] = text.split('::');
  if (more !== undefined) return null;
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? 0 : 8 - h.length - t.length;
  if (fill < 0) return null;
  const all = [...h, ...Array<string>(fill).fill('0'), ...t].map((g) => parseInt(g, 16));
  return all.length === 8 && all.every((g) => g >= 0 && g <= 0xffff) ? all : null;
}

/** An IPv4 address inside an IPv4-mapped IPv6 one (`::ffff:10.0.0.1`, `::ffff:a00:1`), else null. */
function mappedV4(ip: string): string | null {
  const g = groups6(ip);
  if (!g || g.slice(0, 5).some((x) => x !== 0) || g[5] !== 0xffff) return null;
  const [hi = 0, lo = 0] = g.slice(6);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** Whether `ip` is a public unicast address: not loopback, private, CGNAT, link-local, unique-local, multicast, reserved or documentation. */
export function isPublicAddress(ip: string): boolean {
  const v = isIP(ip);
  if (v === 4) return !blocked.check(ip, 'ipv4');
  if (v !== 6) return false;
  const v4 = mappedV4(ip);
  if (v4 !== null) return isPublicAddress(v4);
  return !blocked.check(ip, 'ipv6');
}

const isLoopback = (ip: string) => /^127\./.test(ip) || ip === '::1' || mappedV4(ip)?.startsWith('127.') === true;

/**
 * A `lookup` for `https.Agent`: `dns.lookup`, then refused unless every address is public.
 * `loopback`: a test's stand-in on loopback is let in (code only, never config).
 */
export function safeLookup(o: { loopback: boolean }, resolve: typeof dnsLookup = dnsLookup): LookupFunction {
  return (hostname: string, options: LookupOptions, callback): void => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses as LookupAddress[];
      const bad = list.find((a) => !isPublicAddress(a.address) && !(o.loopback && isLoopback(a.address)));
      if (bad || list.length === 0) {
        const e: NodeJS.ErrnoException = new Error(`push: ${hostname} resolves to ${bad?.address ?? 'nothing'}, not a public address`);
        e.code = 'ECOLLIEPRIVATE';
        return callback(e, '');
      }
      if (options.all) return callback(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}
