/**
 * What an OpenCode 1.18 screen shows, for tests that wait on it (plain capture text). The
 * bridge's own reader is `packages/bridge/src/harness/opencode`; these are only readiness
 * signals.
 */

/** The bottom bar at rest: key hints, no `esc interrupt`. */
export function opencodeReady(screen: string): boolean {
  return /\bctrl\+p commands\b/.test(screen) && !opencodeWorking(screen) && !opencodePermission(screen);
}

/** A turn runs: the block bar and `esc interrupt`. */
export function opencodeWorking(screen: string): boolean {
  return /\besc (?:again to )?interrupt\b/.test(screen);
}

/** The permission prompt: `△ Permission required` with its buttons. */
export function opencodePermission(screen: string): boolean {
  return /Permission required/.test(screen) && /Allow once/.test(screen);
}

/** The question tool's list: `↑↓ select  enter submit  esc dismiss`. */
export function opencodeQuestion(screen: string): boolean {
  return /enter submit\s+esc dismiss/.test(screen);
}
