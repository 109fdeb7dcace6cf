import { TmuxCommandError } from '../mux/tmux/control-client';

/**
 * The Enter guard: a send's Enter goes in only onto the screen its box was checked on.
 *
 * Reading the screen and pressing Enter are two steps; between them an agent can open a
 * permission dialog on its own (seen in the soak: the Enter chose the dialog's first option
 * and the send's text was never submitted). So the check that matters is made by tmux itself,
 * in the same batch as the Enter: `source-file -F` of a path that is `/dev/null` while every
 * non-blank line of the checked screen is still at its row (tmux's `#{C:…}` search of the
 * pane), and a path that does not exist otherwise. tmux runs a batch's commands back to back,
 * parsing no pane output between them, and skips the rest of a batch after a command fails:
 * a changed screen fails the guard, and the Enter after it is never pressed.
 *
 * `source-file` takes no target, so the format walks every pane (`#{S:#{W:#{P:…}}}`) and asks
 * the search of the pane with this id only.
 */
export const SCREEN_CHANGED = '/nonexistent/collie-screen-changed-before-enter';

/** A line as tmux's search sees it: without SGR escapes and trailing white space (isspace). */
const plain = (line: string): string => line.replace(/\x1b\[[0-9;:]*m/g, '').replace(/[ \t\n\v\f\r]+$/, '');

/** `text` as a literal fnmatch pattern inside a tmux format argument. */
function literal(text: string): string {
  return text.replace(/[\\*?[]/g, '\\$&').replace(/[#,}]/g, (c) => (c === '#' ? '##' : `#${c}`));
}

/**
 * The guard command for pane `tmuxId` and the screen `lines` (as `capture-pane -p -e` gave
 * them). Each distinct non-blank line must still first show at the row it first showed at.
 *
 * @example
 * await d.commands([screenGuard('%3', now.lines), ['send-keys', '-t', '%3', 'Enter']]);
 */
export function screenGuard(tmuxId: string, lines: readonly string[]): string[] {
  const rows = lines.map(plain);
  const checks: string[] = [];
  const seen = new Set<string>();
  for (const line of rows) {
    if (line.trim() === '' || seen.has(line)) continue;
    seen.add(line);
    // tmux's search answers the first row that holds the line (1-based), as `findIndex` does here.
    const first = rows.findIndex((r) => r.includes(line)) + 1;
    checks.push(`#{==:#{C:${literal(line)}},${first}}`);
  }
  const all = checks.join('');
  const want = '1'.repeat(checks.length);
  const ours = `#{?#{==:#{pane_id},${tmuxId}},#{?#{==:${all},${want}},y,},}`;
  return ['source-file', '-F', `#{?#{S:#{W:#{P:${ours}}}},/dev/null,${SCREEN_CHANGED}}`];
}

/** Whether a batch failed at its guard: the screen changed, so nothing after it ran. */
export function screenChanged(err: unknown): boolean {
  return err instanceof TmuxCommandError && err.command.startsWith('source-file ') && err.lines.some((l) => l.includes(SCREEN_CHANGED));
}
