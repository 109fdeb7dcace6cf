/**
 * What the test kit waits for on a Codex 0.171 screen (plain capture). Readiness signals for
 * tests, not Collie's screen reader (that lives in the bridge).
 */

/** The composer row: `›` at the left edge (the options of a dialog are indented). */
const COMPOSER = /^› /u;

/** The composer is drawn: the footer under it and no dialog over it. */
export function codexInputReady(screen: string): boolean {
  return screen.split('\n').some((l) => COMPOSER.test(l)) && !codexApproval(screen);
}

/** A question of `request_user_input` is open (it replaces the composer). */
const QUESTION = /enter to submit (?:answer|all)/u;

/**
 * What the composer holds, or undefined when none is drawn. An approval or a question replaces
 * the composer; the last `› ` row is then a user message of the transcript, not the composer
 * (`submit` would read its own prompt there and press Enter into the dialog).
 */
export function codexInputText(screen: string): string | undefined {
  if (codexApproval(screen) || QUESTION.test(screen)) return undefined;
  const lines = screen.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!COMPOSER.test(lines[i]!)) continue;
    const body = [lines[i]!.slice(2)];
    for (let j = i + 1; j < lines.length && /^ {2}\S/u.test(lines[j]!); j++) body.push(lines[j]!.slice(2));
    return body.join('\n').trim();
  }
  return undefined;
}

/** A turn is running. */
export function codexWorking(screen: string): boolean {
  return /esc to interrupt/u.test(screen);
}

/** The command approval is open. */
export function codexApproval(screen: string): boolean {
  return /Would you like to run the following command\?/u.test(screen) && /Yes, proceed/u.test(screen);
}
