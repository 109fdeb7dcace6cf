/**
 * What of a text may be typed into an agent's input box: printable characters and line
 * breaks. Control bytes (C0 but newline and tab, DEL, C1) are removed: typed into a TUI
 * they are keystrokes (Esc, Ctrl-C, Enter), not text. Tabs become two spaces (a tab
 * completes in most agents). CRLF and lone CR become LF.
 */
export function sanitizeText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, '  ')
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '');
}

/** Whitespace-folded form, for comparing typed text with what a screen reader read back. */
export function foldSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Whether the box now holds what was typed: the text itself, or the agent's paste
 * placeholder (`AgentReader.pastePlaceholder`) standing for it. White space is not compared: a screen reader cannot tell a
 * word the terminal wrapped mid-word from two words, so it may read spaces that were not
 * typed (or lose ones that were).
 */
export function arrived(draft: string | null, typed: string, placeholder: RegExp | null): boolean {
  if (draft === null) return false;
  const bare = (s: string) => s.replace(/\s+/g, '');
  return bare(draft) === bare(typed) || (placeholder?.test(foldSpace(draft)) ?? false);
}

/** A short, one-line form of a text for receipts and lists. */
export function summarize(text: string, max = 80): string {
  const one = foldSpace(text);
  return one.length <= max ? one : `${one.slice(0, max - 1)}…`;
}
