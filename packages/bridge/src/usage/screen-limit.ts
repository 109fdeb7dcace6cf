import type { Harness } from '@collie/protocol';
import { claudeScreenLimit } from '../harness/claude/limit';

/**
 * The usage limit an agent's screen shows reached, read with the screen the pane tracker
 * already reads: the reset (ISO) where shown, undefined when reached without one, null when the
 * screen shows none. Claude Code shows it; the others record theirs (Codex's `rate_limits`).
 */
export function screenLimit(harness: Harness, screen: string, now: number): string | undefined | null {
  if (harness !== 'claude') return null;
  const l = claudeScreenLimit(screen, now);
  return l === null ? null : l.resetsAt;
}
