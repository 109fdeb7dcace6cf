import { LIMITS } from './limits';

/**
 * Cleaning of text that came over the wire: control bytes out (C0 but newline and tab, DEL,
 * C1, and the bidirectional overrides that can make a line read differently than it is), then
 * cut to a limit. Each step reports whether it changed anything, so the phone can say
 * "Text shortened" and withhold "Always allow": the person was not shown the whole text.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const CONTROL_LINE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Tracks whether any cleaning step changed what the agent sent. */
export class Fit {
  shortened = false;

  /** Multi-line text: control bytes removed, CRLF kept as LF, cut to `max` characters. */
  text(s: string, max: number): string {
    const clean = s.replace(/\r\n?/g, '\n').replace(CONTROL, '');
    return this.cut(clean, max, s.replace(/\r\n?/g, '\n').length !== clean.length);
  }

  /** One line: every control byte removed (newlines become spaces), cut to `max`. */
  line(s: string, max: number): string {
    const clean = s.replace(/[\r\n]+/g, ' ').replace(CONTROL_LINE, '');
    return this.cut(clean, max, s.replace(/[\r\n]+/g, ' ').length !== clean.length);
  }

  /** A nullable line. */
  maybe(s: string | null | undefined, max: number): string | null {
    return s === null || s === undefined ? null : this.line(s, max);
  }

  /** At most `max` entries of a list. */
  list<T>(xs: readonly T[], max: number): T[] {
    if (xs.length > max) this.shortened = true;
    return xs.slice(0, max);
  }

  private cut(s: string, max: number, changed: boolean): string {
    if (changed) this.shortened = true;
    if (s.length <= max) return s;
    this.shortened = true;
    // The ellipsis counts: a cut text is `max` characters at most ("16 characters at most").
    // Never split a surrogate pair: a lone half shows as a replacement character.
    let end = max - 1;
    const code = s.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
    return `${s.slice(0, end).trimEnd()}…`;
  }
}

/** Only `https://` links are drawn as links; anything else is text. Null when not https. */
export function httpsUrl(raw: string): string | null {
  // No URL class here (the package sees no DOM or node types): a strict pattern instead. A host
  // of letters, digits, dots and dashes, an optional port, then a path with no space, quote,
  // angle bracket or backslash. No user:password@ part (it can disguise the real host).
  if (raw.length > LIMITS.url) return null;
  return /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::\d{1,5})?(?:[/?#][^\s"'<>\\`]*)?$/.test(raw) ? raw : null;
}
