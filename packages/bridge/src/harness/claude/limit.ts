/**
 * Claude Code's usage limit as its screen shows it (2.1.334, a claude.ai login: the API answers
 * 429 with `anthropic-ratelimit-unified-status: rejected` and `-reset`). While it waits, its
 * footer reads `⚠ Usage limit reached · limit resets 8:50am` (with `Continuing automatically at
 * 8:50am · Esc to cancel` under it); the turn's answer reads `You've hit your 5-hour limit ·
 * resets 8:50am (UTC)`, which names the time zone. Only the footer counts: the answer stays in
 * the scrollback after the reset. Claude Code shows minutes, not seconds: the reset read is
 * that minute.
 */
const FOOTER = /Usage limit reached · limit resets\s+(?:([A-Z][a-z]{2}) (\d{1,2}),?\s+(?:at\s+)?)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)/;
const ZONE = /hit your [^\n]*?limit · resets [^\n(]*\(([^)\n]+)\)/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The offset of `zone` from UTC at `at`, in ms (local time = UTC + offset); null for an unknown zone. */
function zoneOffset(zone: string, at: number): number | null {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(new Date(at));
    const n = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? NaN);
    const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
    return Number.isFinite(wall) ? wall - Math.floor(at / 1000) * 1000 : null;
  } catch {
    return null;
  }
}

/** The limit Claude Code's screen shows as reached now, with its reset (ISO) where it reads; null when it shows none. */
export function claudeScreenLimit(screen: string, now: number): { resetsAt?: string } | null {
  const m = FOOTER.exec(screen);
  if (!m) return null;
  const zone = ZONE.exec(screen)?.[1]?.trim();
  const offset = (zone ? zoneOffset(zone, now) : null) ?? -new Date(now).getTimezoneOffset() * 60_000;
  let hour = Number(m[3]) % 12;
  if (m[5] === 'pm') hour += 12;
  const minute = Number(m[4] ?? '0');
  // The wall clock in the limit's zone, as if it were UTC, then back by the offset.
  const wallNow = new Date(now + offset);
  const month = m[1] ? MONTHS.indexOf(m[1]) : -1;
  let at = Date.UTC(wallNow.getUTCFullYear(), month >= 0 ? month : wallNow.getUTCMonth(), m[2] ? Number(m[2]) : wallNow.getUTCDate(), hour, minute) - offset;
  // A time without a date is the next one: today's if it is still ahead (within the minute shown), else tomorrow's.
  if (month < 0 && at < now - 60_000) at += 86_400_000;
  else if (month >= 0 && at < now - 180 * 86_400_000) at = Date.UTC(wallNow.getUTCFullYear() + 1, month, Number(m[2]), hour, minute) - offset;
  return { resetsAt: new Date(at).toISOString() };
}
