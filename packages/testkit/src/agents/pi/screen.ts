/**
 * What a pi 0.73 screen shows, for tests that wait on it (plain capture text). The bridge's
 * own reader is `packages/bridge/src/harness/pi`; these are only readiness signals.
 */

/** The editor between its two rules, with no turn running and no dialog. */
export function piReady(screen: string): boolean {
  return /^─{20,}\s*$/m.test(screen) && !piWorking(screen) && !piPermission(screen);
}

/** A turn runs: the spinner row `⠹ Working...`. */
export function piWorking(screen: string): boolean {
  return /^\s*[\u2801-\u28ff]\s+\S.*(?:…|\.\.\.)/m.test(screen) || /\besc to interrupt\b/i.test(screen);
}

/** The permission-gate extension's select: `⚠️ Dangerous command: …  Allow?` with Yes / No. */
export function piPermission(screen: string): boolean {
  return /Dangerous command:/.test(screen) && /Allow\?/.test(screen) && /\bYes\b/.test(screen);
}
