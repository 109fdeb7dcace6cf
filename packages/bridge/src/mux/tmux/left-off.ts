import { markAlive, ownMark } from './orphans';

/**
 * Pane input a bridge that died left switched off. A send switches its pane's input off from
 * its paste to its Enter (`select-pane -d`, send/typist.ts), so no one's keys mix with its
 * text. The same tmux batch marks the pane with the bridge's own mark (pid and start time,
 * ./orphans), as a pane option, and the batch that switches the input on again takes the mark
 * away. A bridge killed in between leaves the pane deaf to everyone: the person at its
 * terminal, and the phone's answers. A bridge that starts switches on the input of every pane
 * whose mark names a process that no longer runs. A pane without the mark (the person switched
 * it off themselves) and one a running bridge holds are left as they are.
 */

/** The pane option naming the bridge that switched the pane's input off. */
export const INPUT_MARK = '@collie-input-off';

/** `list-panes -a -F LEFT_OFF_FORMAT`: a pane's id and its mark (empty without one). */
export const LEFT_OFF_FORMAT = `#{pane_id}\t#{${INPUT_MARK}}`;

/** The commands that switch a pane's input off, marked as this bridge's (no mark where there is no /proc). */
export function inputOffCommands(tmuxId: string): string[][] {
  const mark = ownMark();
  return [['select-pane', '-d', '-t', tmuxId], ...(mark ? [['set-option', '-p', '-t', tmuxId, INPUT_MARK, mark]] : [])];
}

/** The commands that switch a pane's input on again and take its mark away. */
export function inputOnCommands(tmuxId: string): string[][] {
  return [['select-pane', '-e', '-t', tmuxId], ['set-option', '-p', '-u', '-t', tmuxId, INPUT_MARK]];
}

/** Of `list-panes -F LEFT_OFF_FORMAT` lines, the panes whose input a process that no longer runs switched off. */
export function inputsLeftOff(lines: readonly string[], alive: (mark: string) => boolean = markAlive): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [pane, mark] = [line.slice(0, tab), line.slice(tab + 1)];
    if (/^%\d+$/.test(pane) && mark !== '' && !alive(mark)) out.push(pane);
  }
  return out;
}
