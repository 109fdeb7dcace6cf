import type { PushPrefs } from '@collie/protocol';

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Inside the quiet hours (local "HH:MM" to "HH:MM", across midnight when `from` > `to`). */
export function inQuiet(quiet: PushPrefs['quiet'], at: Date): boolean {
  if (!quiet) return false;
  const now = at.getHours() * 60 + at.getMinutes();
  const from = minutes(quiet.from);
  const to = minutes(quiet.to);
  if (from === to) return false;
  return from < to ? now >= from && now < to : now >= from || now < to;
}
