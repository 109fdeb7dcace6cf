import { z } from 'zod';

/**
 * Sends that wait: `POST /api/panes/:id/send` with `at` (an ISO 8601 time with its zone) or
 * `when: "limit-reset"` (the pane's own usage-limit reset, `pane.usage.limit.resetsAt`). The
 * receipt stands at `scheduled` (outcome `scheduled for <ISO time>`, with `: when the limit
 * resets` for the latter) until the time comes; then it is a send like any other.
 */
export const SendWhen = z.enum(['limit-reset']);
export type SendWhen = z.infer<typeof SendWhen>;

/** How far ahead a send may be scheduled. */
export const MAX_SCHEDULE_AHEAD_MS = 7 * 24 * 3_600_000;
/** A time this much in the past is still taken (the clocks of phone and bridge differ a little): it is typed at once. */
export const SCHEDULE_GRACE_MS = 60_000;

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * An ISO 8601 date and time with its zone (`2026-12-05T02:00:00Z`, `2026-12-05T03:00+01:00`)
 * as epoch ms; null for anything else (no zone, an impossible date, a date without a time).
 */
export function parseSendAt(at: string): number | null {
  const m = ISO.exec(at);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [number, number, number, number, number, number];
  const ms = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0;
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return null;
  let offset = 0;
  if (m[8] !== 'Z') {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return null;
    offset = (m[9] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  return Date.UTC(y, mo - 1, d, h, mi, s, ms) - offset;
}

/** Why a schedule time is refused against `now`, in words; null when it is fine. */
export function sendAtProblem(ms: number, now: number): string | null {
  if (ms < now - SCHEDULE_GRACE_MS) return 'that time is past';
  if (ms > now + MAX_SCHEDULE_AHEAD_MS) return 'a send waits at most 7 days';
  return null;
}

/** The outcome words of a scheduled send: the time in ISO form, which each client shows in its own zone. */
export const SCHEDULED_PREFIX = 'scheduled for ';
export const LIMIT_RESET_REASON = 'when the limit resets';

export function scheduledOutcome(ms: number, when?: SendWhen): string {
  return `${SCHEDULED_PREFIX}${new Date(ms).toISOString()}${when === 'limit-reset' ? `: ${LIMIT_RESET_REASON}` : ''}`;
}

/**
 * An instant on the reader's clock (`timeZone`, default the runtime's): `02:00` today, `Sun 02:00`
 * on another day within the week, `12 Dec 02:00` further away; '' for a time that does not parse.
 */
export function momentWords(iso: string, now = Date.now(), timeZone?: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const zone = timeZone ? { timeZone } : {};
  const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, ...zone }).format(t);
  const dayOf = (ms: number) => new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: '2-digit', day: '2-digit', ...zone }).format(ms);
  if (dayOf(t) === dayOf(now)) return clock;
  const day = Math.abs(t - now) < 6 * 86_400_000 ? new Intl.DateTimeFormat('en-GB', { weekday: 'short', ...zone }).format(t) : new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', ...zone }).format(t);
  return `${day} ${clock}`;
}

/** `scheduled for 02:00` in the reader's zone, its day added when it is not today (`momentWords`). */
export function scheduledWords(iso: string, when: SendWhen | undefined, now = Date.now(), timeZone?: string): string {
  const moment = momentWords(iso, now, timeZone);
  if (moment === '') return 'scheduled';
  return `${SCHEDULED_PREFIX}${moment}${when === 'limit-reset' ? `, ${LIMIT_RESET_REASON}` : ''}`;
}
