import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endpointKey, parseProcNetTcp } from './proc-net-tcp';

const HEADER = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';

describe('parseProcNetTcp', () => {
  it('reads IPv4 and IPv6 rows, either byte order; an IPv4-mapped address is its IPv4 one', () => {
    const v4 = `${HEADER}\n   0: 0100007F:1F90 0100007F:D431 01 00000000:00000000 00:00000000 00000000  1000        0 12345 1 0 20 4 30 10 -1\n`;
    expect(parseProcNetTcp(v4, true)).toEqual([{ local: '7f000001:8080', remote: '7f000001:54321', uid: 1000 }]);
    expect(parseProcNetTcp(v4.replace('0100007F:1F90', '7F000001:1F90').replace('0100007F:D431', '7F000001:D431'), false)).toEqual([{ local: '7f000001:8080', remote: '7f000001:54321', uid: 1000 }]);
    const v6 = `${HEADER}\n   1: 00000000000000000000000001000000:1F90 0000000000000000FFFF00000100007F:D431 01 00000000:00000000 00:00000000 00000000     0        0 1 1 0 20 4 30 10 -1\n`;
    expect(parseProcNetTcp(v6, true)).toEqual([{ local: `${'0'.repeat(30)}01:8080`, remote: '7f000001:54321', uid: 0 }]);
    expect(endpointKey('::1', 8080)).toBe(`${'0'.repeat(30)}01:8080`);
    expect(endpointKey('::ffff:127.0.0.1', 54321)).toBe('7f000001:54321');
    expect(endpointKey('127.0.0.1', 54321)).toBe('7f000001:54321');
    expect(endpointKey('fe80::1%eth0', 1)).toBe('fe800000000000000000000000000001:1');
    for (const bad of ['', 'x', '1.2.3.256', '1::2::3', '1:2:3:4:5:6:7:8:9', '::g']) expect(endpointKey(bad, 1)).toBeNull();
  });

  it('hostile or malformed text never throws, and every row it keeps is well formed', () => {
    const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9A-Fa-f]{${n}}$`));
    const field = fc.oneof(fc.string(), fc.tuple(fc.oneof(hex(8), hex(32), fc.string()), hex(4)).map(([a, p]) => `${a}:${p}`));
    const row = fc.tuple(fc.oneof(fc.nat().map((n) => `${n}:`), fc.string()), field, field, fc.array(fc.oneof(fc.string(), fc.nat().map(String)), { maxLength: 12 })).map(([sl, l, r, rest]) => [sl, l, r, ...rest].join(' '));
    fc.assert(
      fc.property(fc.array(fc.oneof(row, fc.string(), fc.string({ unit: 'grapheme' })), { maxLength: 20 }), fc.boolean(), (lines, little) => {
        const rows = parseProcNetTcp(lines.join('\n'), little);
        for (const r of rows) {
          expect(r.local).toMatch(/^(?:[0-9a-f]{8}|[0-9a-f]{32}):\d{1,5}$/);
          expect(r.remote).toMatch(/^(?:[0-9a-f]{8}|[0-9a-f]{32}):\d{1,5}$/);
          expect(Number.isSafeInteger(r.uid) && r.uid >= 0).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
    fc.assert(fc.property(fc.string(), fc.integer(), (a, p) => void endpointKey(a, p)));
  });
});
