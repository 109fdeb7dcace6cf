/**
 * What the test kit waits for on a Gemini CLI 0.61 screen (plain capture). Readiness signals
 * for tests, not Collie's screen reader (that lives in the bridge).
 */

/** The prompt row inside the input box: `│ > text │` or, without side borders, `> text`. */
const PROMPT = /^\s*(?:│\s*)?> (.*?)\s*(?:│\s*)?$/u;
const PLACEHOLDER = 'Type your message or @path/to/file';

/** The input box is drawn and no dialog is open. */
export function geminiInputReady(screen: string): boolean {
  return geminiInputText(screen) !== undefined && !geminiApproval(screen);
}

/**
 * What the input box holds ('' for the placeholder), or undefined when none is drawn. Under
 * an open approval the box is not drawn, and the last `> ` row is the person's message in the
 * transcript: read as the box, it made `submit` press Enter into the approval (seen
 * 2026-12-04: the command ran without the card ever showing).
 */
export function geminiInputText(screen: string): string | undefined {
  if (geminiApproval(screen)) return undefined;
  const lines = screen.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = PROMPT.exec(lines[i]!);
    if (!m) continue;
    // A long draft wraps onto indented rows, down to the box's lower edge.
    const rest: string[] = [];
    for (let j = i + 1; j < lines.length && /^ {3}\S/u.test(lines[j]!); j++) rest.push(lines[j]!.trim());
    const text = [(m[1] ?? '').trim(), ...rest].join(' ');
    return text === PLACEHOLDER ? '' : text;
  }
  return undefined;
}

/** A turn is running. */
export function geminiWorking(screen: string): boolean {
  return /esc to cancel/u.test(screen);
}

/** The shell approval is open. */
export function geminiApproval(screen: string): boolean {
  return /Allow execution of/u.test(screen) && /Allow once/u.test(screen);
}

/**
 * A session resumed with `--resume` has loaded and takes keys: its turns are drawn (`lastText`,
 * the last of them, among them) and the input box is back under them. Gemini CLI draws the turns
 * at once, then runs `Resuming session...` where the box goes until the chat is loaded; keys typed
 * meanwhile are lost (its `useSessionResume` keeps the prompt unmounted).
 */
export function geminiResumeLoaded(screen: string, lastText: string): boolean {
  const last = screen.lastIndexOf(lastText);
  return last >= 0 && !screen.includes('Resuming session...') && screen.lastIndexOf(PLACEHOLDER) > last;
}
