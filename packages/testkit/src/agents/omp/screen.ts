/**
 * What an omp 18 screen shows, for tests that wait on it (plain capture text). The bridge's own
 * reader is `packages/bridge/src/harness/omp`; these are only readiness signals.
 */

/** The composer's status edge `π > ⬢ Fake Coder > … ▶───` with no turn running and no dialog. */
export function ompReady(screen: string): boolean {
  return /π > .*▶/u.test(screen) && !ompWorking(screen) && !ompApproval(screen);
}

/** A turn runs: a spinner row with `esc to interrupt` / `Working`. */
export function ompWorking(screen: string): boolean {
  return /\besc to (?:interrupt|cancel)\b/iu.test(screen) || /^\s*[\u2801-\u28ff]\s+\S/mu.test(screen);
}

/** A tool approval prompt. */
export function ompApproval(screen: string): boolean {
  return /\b(?:Allow|Approve)\b.*\?|\bDeny\b/u.test(screen) && /\bAllow\b/u.test(screen);
}
