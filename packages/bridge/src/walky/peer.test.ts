import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findSs, peerFromSs, socketInode, uidOf } from './peer';

const SOCK = '/tmp/collie state/walky/sock';

describe('reading the connected pair from ss -xHn', () => {
  it('finds the peer inode of the bridge end, with spaces in paths and other sockets around', () => {
    const out = [
      'u_str ESTAB 0      0      /run/systemd/journal/stdout 20577 * 20576',
      `u_str ESTAB 0      0      ${SOCK} 1276756 * 1276755`,
      `u_str ESTAB 0      0      ${SOCK} 1276760 /tmp/a bound client 1276759`,
      'u_str LISTEN 0 511 /tmp/other 1276756 * 0',
      '',
    ].join('\n');
    expect(peerFromSs(out, SOCK, 1276756)).toBe(1276755);
    expect(peerFromSs(out, SOCK, 1276760)).toBe(1276759);
    expect(peerFromSs(out, SOCK, 999)).toBeNull();
    // A listening or torn socket has no peer (0).
    expect(peerFromSs(`u_str ESTAB 0 0 ${SOCK} 5 * 0\n`, SOCK, 5)).toBeNull();
    expect(peerFromSs('', SOCK, 5)).toBeNull();
  });

  it('never throws and only answers a positive inode on the line of that socket (fast-check)', () => {
    const field = fc.string({ maxLength: 20 });
    fc.assert(
      fc.property(fc.array(fc.array(field, { maxLength: 9 }).map((f) => f.join(' ')), { maxLength: 8 }), fc.nat(), (lines, local) => {
        const got = peerFromSs(lines.join('\n'), SOCK, local);
        if (got !== null) {
          expect(Number.isInteger(got) && got > 0).toBe(true);
          expect(lines.some((l) => l.includes(` ${SOCK} ${local} `))).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 40 }), fc.integer({ min: 1, max: 2 ** 40 }), fc.constantFrom('*', '/x y/z', '@abstract'), (local, peer, addr) => {
        expect(peerFromSs(`u_str ESTAB 0 0 ${SOCK} ${local} ${addr} ${peer}`, SOCK, local)).toBe(peer);
      }),
    );
  });

  it('reads socket links and uids', () => {
    expect(socketInode('socket:[42]')).toBe(42);
    expect(socketInode('pipe:[42]')).toBeNull();
    expect(socketInode('socket:[42]x')).toBeNull();
    expect(uidOf('Name:\tx\nUid:\t1000\t1000\t1000\t1000\n')).toBe(1000);
    expect(uidOf('Name:\tx\n')).toBeNull();
  });

  it('finds ss on PATH or in sbin, and says null when it is nowhere', async () => {
    expect(await findSs({ PATH: '/nonexistent' }, [])).toBeNull();
    expect(await findSs({ PATH: '' })).toMatch(/\/ss$/);
  });
});
