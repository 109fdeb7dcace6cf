/**
 * What the test kit waits for on a Claude Code 2.1.334 screen (plain capture, no escapes).
 * These are readiness signals for tests, not Collie's screen readers: those live in the
 * bridge and must be right on every real screen; these only need to be right on ours.
 */

const RULE = /^─{8,}/;

/**
 * The input box is drawn and empty: a `❯` line between two rules, and no dialog. The box
 * appears only once the start-up screens are past, so this is the "ready" signal. It holds
 * during a turn too (text typed then is queued); `&& !claudeWorking(s)` means idle.
 */
export function claudeInputReady(screen: string): boolean {
  const lines = screen.split('\n');
  return lines.some((line, i) => /^❯\s*$/.test(line) && RULE.test(lines[i - 1] ?? '') && RULE.test(lines[i + 1] ?? ''));
}

/**
 * What the input box holds (wrapped lines joined), or undefined when no box is drawn (a
 * dialog has the screen). The box is the last `❯` line between two rules, plus the lines
 * that follow it up to the lower rule.
 */
export function claudeInputText(screen: string): string | undefined {
  const lines = screen.split('\n');
  for (let i = lines.length - 1; i > 0; i--) {
    if (!lines[i]!.startsWith('❯') || !RULE.test(lines[i - 1] ?? '')) continue;
    const body: string[] = [];
    for (let j = i; j < lines.length && !RULE.test(lines[j]!); j++) body.push(lines[j]!.slice(2).trimEnd());
    return body.join('\n').trim();
  }
  return undefined;
}

/** A turn is running: the spinner line offers the interrupt key. */
export function claudeWorking(screen: string): boolean {
  return /esc to interrupt/i.test(screen);
}

/** A tool permission dialog is open (Bash, edits, …). */
export function claudePermissionDialog(screen: string): boolean {
  return /Do you want to proceed\?/.test(screen) && /❯ 1\. Yes/.test(screen);
}

/** An AskUserQuestion dialog is open. */
export function claudeQuestionDialog(screen: string): boolean {
  return /Enter to select · ↑\/↓ to navigate/.test(screen);
}
