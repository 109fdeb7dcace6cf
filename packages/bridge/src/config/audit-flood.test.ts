import { describe, expect, it } from 'vitest';
import type { AuditEntry } from './audit-log';
import { AuditFlood } from './audit-flood';

/** A flood gate on a clock the test moves; its timers fire when the clock passes them. */
function gate() {
  let t = 0;
  let timers: { at: number; fn: () => void }[] = [];
  const written: AuditEntry[] = [];
  const flood = new AuditFlood({
    write: (e) => written.push(e),
    now: () => t,
    setTimer: (fn, ms) => {
      const timer = { at: t + ms, fn };
      timers.push(timer);
      return () => void (timers = timers.filter((x) => x !== timer));
    },
  });
  const advance = (ms: number) => {
    t += ms;
    const due = timers.filter((x) => x.at <= t);
    timers = timers.filter((x) => x.at > t);
    for (const x of due) x.fn();
  };
  return { flood, written, advance };
}

const refused = (i: number) => ({ method: 'POST', path: `/api/x${i}`, status: 403, code: 'forbidden_origin' });

describe('AuditFlood', () => {
  it('writes a few refusals of a kind in full, counts the rest, and says how many when the window closes', () => {
    const { flood, written, advance } = gate();
    for (let i = 0; i < 192; i++) flood.offer(refused(i));
    flood.offer({ action: 'device.paired', device: 'phone' });
    expect(written).toHaveLength(6);
    expect(written[5]).toEqual({ action: 'device.paired', device: 'phone' });
    advance(10_000);
    expect(written[6]).toMatchObject({ action: 'refused.flood', code: 'forbidden_origin', count: 187, seconds: 10, summary: 'refused 187 more like this in 10 s', path: '/api/x5' });
  });

  it('a flood that goes on writes only its count, window after window; a quiet spell brings back the full lines', () => {
    const { flood, written, advance } = gate();
    for (let w = 0; w < 5; w++) {
      for (let i = 0; i < 100; i++) flood.offer(refused(i));
      advance(10_000);
    }
    expect(written.filter((e) => e['action'] === undefined)).toHaveLength(5);
    expect(written.filter((e) => e['action'] === 'refused.flood').map((e) => e['count'])).toEqual([95, 100, 100, 100, 100]);
    advance(60_000);
    written.length = 0;
    flood.offer(refused(1));
    advance(10_000);
    expect(written).toEqual([refused(1)]);
  });

  it('kinds are counted apart; a failed pairing is a kind by its reason; flush writes the open counts', () => {
    const { flood, written } = gate();
    for (let i = 0; i < 7; i++) flood.offer({ method: 'POST', path: '/api/snapshot', status: 401, code: 'unauthorized' });
    for (let i = 0; i < 7; i++) flood.offer({ action: 'pairing.failed', reason: 'malformed link' });
    for (let i = 0; i < 7; i++) flood.offer({ method: 'POST', path: '/api/x', status: 404, code: 'not_found', by: 'device phone (d1)' });
    expect(written).toHaveLength(5 + 5 + 7);
    flood.flush();
    expect(written.slice(17)).toEqual([
      expect.objectContaining({ action: 'refused.flood', code: 'unauthorized', count: 2 }),
      expect.objectContaining({ action: 'refused.flood', code: 'pairing_failed', reason: 'malformed link', count: 2 }),
    ]);
  });
});
