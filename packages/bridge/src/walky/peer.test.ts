import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findSs, peerFromSs, socketInode, ssTable, uidOf } from './peer';

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

describe('one ss table for every proof in flight', () => {
  /** A stand-in for the ss process whose runs end when the test says. */
  function runs() {
    const started: { resolve: (out: string) => void }[] = [];
    const run = () => new Promise<string | null>((resolve) => started.push({ resolve }));
    return { started, run };
  }

  it('starts one run for a call alone, and a call made during a run joins the one run after it', async () => {
    const { started, run } = runs();
    const table = ssTable('/bin/ss', run);
    const first = table();
    expect(started).toHaveLength(1);
    // The run under way may have read the table before these connections were in it.
    const second = table();
    const third = table();
    expect(started).toHaveLength(1);
    started[0]!.resolve('one');
    expect(await first).toBe('one');
    await Promise.resolve();
    expect(started).toHaveLength(2);
    started[1]!.resolve('two');
    expect(await second).toBe('two');
    expect(await third).toBe('two');
    // Nothing under way: a call starts a run of its own at once.
    const fourth = table();
    expect(started).toHaveLength(3);
    started[2]!.resolve('three');
    expect(await fourth).toBe('three');
  });

  it('goes on after a run that failed or threw', async () => {
    let n = 0;
    const table = ssTable('/bin/ss', () => (++n === 1 ? Promise.reject(new Error('spawn EAGAIN')) : Promise.resolve(`run ${n}`)));
    const failed = table();
    const after = table();
    await expect(failed).rejects.toThrow('EAGAIN');
    expect(await after).toBe('run 2');
    expect(await table()).toBe('run 3');
  });

  it('answers every call of a burst from a run that started after it (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }), async (steps) => {
        // true: a call; false: the oldest run under way ends.
        let clock = 0;
        // A run answers the moment it started.
        const pending: { resolve: (out: string) => void }[] = [];
        const table = ssTable('/bin/ss', () => {
          const at = ++clock;
          return new Promise((resolve) => pending.push({ resolve: () => resolve(String(at)) }));
        });
        const calls: { at: number; answer: Promise<string | null> }[] = [];
        for (const call of steps) {
          if (call) calls.push({ at: ++clock, answer: table() });
          else pending.shift()?.resolve('');
          await Promise.resolve();
          await Promise.resolve();
        }
        while (pending.length) {
          pending.shift()!.resolve('');
          for (let i = 0; i < 4; i++) await Promise.resolve();
        }
        for (const c of calls) expect(Number(await c.answer)).toBeGreaterThan(c.at);
        expect(pending).toHaveLength(0);
      }),
    );
  });
});
