import { isIPv4 } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pushEndpointProblem } from './endpoint';
import { isPublicAddress } from './endpoint-lookup';

const octet = fc.integer({ min: 0, max: 255 });
const ipv4 = fc.tuple(octet, octet, octet, octet);
/** One IPv4 address in every spelling a URL parser or `inet_aton` takes: dotted, one number, hex, octal, short forms. */
const spelled = ipv4.chain(([a, b, c, d]) => {
  const n = ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
  return fc.constantFrom(
    `${a}.${b}.${c}.${d}`,
    String(n),
    `0x${n.toString(16)}`,
    `0${n.toString(8)}`,
    `0x${a.toString(16)}.${b}.${c}.${d}`,
    `0${a.toString(8)}.0${b.toString(8)}.${c}.${d}`,
    `${a}.${(b << 16) | (c << 8) | d}`,
    `${a}.${b}.${(c << 8) | d}`,
    `${a}.${b}.${c}.${d}.`,
    `[::ffff:${a}.${b}.${c}.${d}]`,
    `[::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}]`,
    `[0:0:0:0:0:ffff:${a}.${b}.${c}.${d}]`,
  );
});
const hex4 = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
const ipv6 = fc.array(hex4, { minLength: 8, maxLength: 8 }).map((g) => `[${g.join(':')}]`);
const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/);
const port = fc.oneof(fc.constant(''), fc.integer({ min: 1, max: 65535 }).map((p) => `:${p}`));

describe('push endpoints: https on a public host name, nothing else', () => {
  it('refuses every IP address, in any spelling, on any port', () => {
    fc.assert(
      fc.property(fc.oneof(spelled, ipv6), port, (host, p) => {
        expect(pushEndpointProblem(`https://${host}${p}/push/abc`)).not.toBeNull();
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses localhost, *.localhost, local-only suffixes, single-label names, http and credentials', () => {
    fc.assert(
      fc.property(label, fc.constantFrom('localhost', 'local', 'internal', 'lan', 'home.arpa'), port, (name, suffix, p) => {
        expect(pushEndpointProblem(`https://${name}.${suffix}${p}/push`)).not.toBeNull();
        expect(pushEndpointProblem(`https://${suffix}${p}/push`)).not.toBeNull();
        expect(pushEndpointProblem(`https://${name}${p}/push`)).not.toBeNull();
        expect(pushEndpointProblem(`http://${name}.example.com${p}/push`)).not.toBeNull();
        expect(pushEndpointProblem(`https://u:p@${name}.push.com${p}/push`)).not.toBeNull();
      }),
    );
  });

  it('takes the browsers\' push services and any public DNS name', () => {
    for (const e of ['https://fcm.googleapis.com/fcm/send/abc:APA91b', 'https://updates.push.services.mozilla.com/wpush/v2/gAAAA', 'https://web.push.apple.com/QGuQyavXutnMH', 'https://wns2-by3p.notify.windows.com/w/?token=BQYAAA']) {
      expect(pushEndpointProblem(e), e).toBeNull();
    }
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 3 }), fc.constantFrom('com', 'net', 'org', 'io', 'dev'), (labels, tld) => {
        expect(pushEndpointProblem(`https://${[...labels, tld].join('.')}/push/x`)).toBeNull();
      }),
    );
  });

  it('lets a test\'s stand-in on loopback in only when told, and nothing else private even then', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 65535 }), octet, (p, x) => {
        const url = `https://127.0.0.${x}:${p}/push/0`;
        expect(pushEndpointProblem(url)).not.toBeNull();
        expect(pushEndpointProblem(url, { loopback: true })).toBeNull();
        expect(pushEndpointProblem(`https://10.0.0.${x}:${p}/push/0`, { loopback: true })).not.toBeNull();
        expect(pushEndpointProblem(`https://192.168.1.${x}:${p}/push/0`, { loopback: true })).not.toBeNull();
      }),
    );
  });
});

describe('resolved addresses: only public unicast ones connect', () => {
  const inRange = (base: [number, number, number, number], bits: number) =>
    fc.integer({ min: 0, max: 2 ** (32 - bits) - 1 }).map((off) => {
      const n = ((((base[0] << 24) | (base[1] << 16) | (base[2] << 8) | base[3]) >>> 0) + off) >>> 0;
      return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
    });
  const privateV4 = fc.oneof(
    inRange([0, 0, 0, 0], 8), inRange([10, 0, 0, 0], 8), inRange([100, 64, 0, 0], 10), inRange([127, 0, 0, 0], 8),
    inRange([169, 254, 0, 0], 16), inRange([172, 16, 0, 0], 12), inRange([192, 168, 0, 0], 16), inRange([224, 0, 0, 0], 4), inRange([240, 0, 0, 0], 4),
  );

  it('refuses loopback, private, CGNAT, link-local, multicast and reserved IPv4, also inside IPv6', () => {
    fc.assert(
      fc.property(privateV4, (ip) => {
        expect(isIPv4(ip)).toBe(true);
        expect(isPublicAddress(ip), ip).toBe(false);
        expect(isPublicAddress(`::ffff:${ip}`), ip).toBe(false);
        const [a = 0, b = 0, c = 0, d = 0] = ip.split('.').map(Number);
        expect(isPublicAddress(`::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`), ip).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses ::1, ::, unique-local and link-local IPv6; takes public ones', () => {
    fc.assert(
      fc.property(hex4, hex4, (x, y) => {
        expect(isPublicAddress(`fd${x.padStart(2, '0').slice(-2)}::${y}`)).toBe(false);
        expect(isPublicAddress(`fe80::${x}:${y}`)).toBe(false);
      }),
    );
    for (const ip of ['::1', '::', '0:0:0:0:0:0:0:1']) expect(isPublicAddress(ip), ip).toBe(false);
    for (const ip of ['8.8.8.8', '142.250.74.100', '2a00:1450:4001:82b::200a', '2606:4700::6810:85e5']) expect(isPublicAddress(ip), ip).toBe(true);
  });
});
