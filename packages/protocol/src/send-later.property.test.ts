import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SendRequest } from './send';
import { momentWords, parseSendAt, scheduledOutcome, scheduledWords } from './send-later';

const instant = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 11, 31) });
const offset = fc.integer({ min: -14 * 60, max: 14 * 60 });
const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');

/** The instant written in a zone `off` minutes east of UTC, seconds kept. */
function inZone(ms: number, off: number): string {
  const d = new Date(ms + off * 60_000);
  const zone = off === 0 ? 'Z' : `${off < 0 ? '-' : '+'}${pad(Math.trunc(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}${zone}`;
}

describe('the send request parser: at and when', () => {
  it('reads every instant written in any zone back to the same instant', () => {
    fc.assert(fc.property(instant, offset, (ms, off) => parseSendAt(inZone(ms, off)) === ms));
  });

  it('takes what Date.toISOString writes, and the receipt words carry it', () => {
    fc.assert(
      fc.property(instant, (ms) => {
        expect(parseSendAt(new Date(ms).toISOString())).toBe(ms);
        expect(scheduledOutcome(ms)).toBe(`scheduled for ${new Date(ms).toISOString()}`);
      }),
    );
  });

  it('never throws, and anything it takes is a finite instant that has a zone', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?(Z|[+-]\d\d:\d\d)?$/)), (s) => {
        const ms = parseSendAt(s);
        if (ms !== null) {
          expect(Number.isFinite(ms)).toBe(true);
          expect(s).toMatch(/(Z|[+-]\d\d:\d\d)$/);
        }
      }),
    );
  });

  it('refuses impossible dates, times without a zone and bare dates', () => {
    for (const s of ['2026-02-30T02:00Z', '2026-13-01T02:00Z', '2026-12-05T24:00Z', '2026-12-05T02:60Z', '2026-12-05T02:00', '2026-12-05', '2026-12-05T02:00+24:00', 'tomorrow', '']) {
      expect(parseSendAt(s), s).toBeNull();
    }
    expect(parseSendAt('2028-02-29T00:00Z')).toBe(Date.UTC(2028, 1, 29));
  });

  it('SendRequest: at and when are exclusive, unknown keys and bad times are refused', () => {
    const base = { text: 'go on', request_id: 'r-1' };
    fc.assert(
      fc.property(instant, fc.boolean(), fc.boolean(), (ms, withAt, withWhen) => {
        const body = { ...base, ...(withAt ? { at: new Date(ms).toISOString() } : {}), ...(withWhen ? { when: 'limit-reset' } : {}) };
        expect(SendRequest.safeParse(body).success).toBe(!(withAt && withWhen));
      }),
    );
    fc.assert(fc.property(fc.string().filter((s) => parseSendAt(s) === null), (at) => SendRequest.safeParse({ ...base, at }).error?.issues[0]?.path[0] === 'at'));
    expect(SendRequest.safeParse({ ...base, when: 'later' }).success).toBe(false);
    expect(SendRequest.safeParse({ ...base, at_time: 'x' }).success).toBe(false);
  });

  it('shows the time in the reader zone, with the day when it is not today', () => {
    const now = Date.UTC(2026, 11, 5, 6, 0);
    expect(scheduledWords('2026-12-05T02:00:00.000Z', undefined, now, 'UTC')).toBe('scheduled for 02:00');
    expect(scheduledWords('2026-12-05T02:00:00.000Z', undefined, now, 'Europe/Paris')).toBe('scheduled for 03:00');
    expect(scheduledWords('2026-12-06T02:00:00.000Z', 'limit-reset', now, 'UTC')).toBe('scheduled for Sun 02:00, when the limit resets');
    // Three hours on from 12:29 UTC is past midnight in Tokyo: the phone there reads the day too.
    expect(momentWords('2026-12-05T15:29:00.000Z', Date.UTC(2026, 11, 5, 12, 29), 'Asia/Tokyo')).toBe('Sun 00:29');
    expect(momentWords('2026-12-05T15:29:00.000Z', Date.UTC(2026, 11, 5, 12, 29), 'UTC')).toBe('15:29');
    expect(momentWords('2026-12-12T02:00:00.000Z', now, 'UTC')).toBe('12 Dec 02:00');
    expect(momentWords('not a time', now, 'UTC')).toBe('');
    expect(scheduledWords('not a time', undefined, now, 'UTC')).toBe('scheduled');
  });

  it('names the day exactly when the time falls on another day of the reader', () => {
    const zones = ['UTC', 'Asia/Tokyo', 'America/Los_Angeles', 'Asia/Kolkata'];
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }), fc.integer({ min: 0, max: 6 * 86_400_000 - 1 }), fc.constantFrom(...zones), (now, ahead, zone) => {
        const iso = new Date(now + ahead).toISOString();
        const words = momentWords(iso, now, zone);
        const day = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(ms);
        return day(now) === day(now + ahead) ? /^\d\d:\d\d$/.test(words) : /^[A-Z][a-z]{2} \d\d:\d\d$/.test(words);
      }),
    );
  });
});
