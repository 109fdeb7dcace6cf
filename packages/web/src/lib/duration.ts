const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Time in a state, as short as a row allows: "12s", "3m", "1h 20m", "2h", "3d 4h".
 * Seconds show only under a minute; a negative span (the phone's clock ahead of the
 * bridge's) reads as "0s".
 */
export function formatDuration(ms: number): string {
  const span = Number.isFinite(ms) && ms > 0 ? ms : 0;
  if (span < MINUTE) return `${Math.floor(span / SECOND)}s`;
  if (span < HOUR) return `${Math.floor(span / MINUTE)}m`;
  if (span < DAY) return pair(Math.floor(span / HOUR), 'h', Math.floor((span % HOUR) / MINUTE), 'm');
  return pair(Math.floor(span / DAY), 'd', Math.floor((span % DAY) / HOUR), 'h');
}

function pair(major: number, majorUnit: string, minor: number, minorUnit: string): string {
  return minor === 0 ? `${major}${majorUnit}` : `${major}${majorUnit} ${minor}${minorUnit}`;
}

/** The same span said in words for a screen reader: "58 seconds", "3 minutes", "1 hour 20 minutes". */
export function spokenDuration(ms: number): string {
  const short = formatDuration(ms);
  const words: Record<string, [string, string]> = { s: ['second', 'seconds'], m: ['minute', 'minutes'], h: ['hour', 'hours'], d: ['day', 'days'] };
  return short
    .split(' ')
    .map((part) => {
      const n = Number(part.slice(0, -1));
      const unit = words[part.slice(-1)] ?? ['', ''];
      return `${n} ${n === 1 ? unit[0] : unit[1]}`;
    })
    .join(' ');
}
