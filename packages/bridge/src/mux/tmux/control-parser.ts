/**
 * Pure parser for tmux control mode (`tmux -C`) output, one line at a time.
 *
 * Per tmux(1) "CONTROL MODE": the reply to each command is wrapped in
 * `%begin <time> <number> <flags>` … `%end|%error <time> <number> <flags>`, with the same
 * three fields on both guard lines; every other line starting with `%` is a notification.
 * Flags are 1 for commands this client sent and 0 for the command the client was started
 * with (verified with tmux 3.3a, 2026-12-02), so only flag-1 replies answer our queue.
 */

export type ControlEvent =
  | { kind: 'reply'; ok: boolean; fromClient: boolean; lines: string[] }
  | { kind: 'notification'; name: string; args: string[]; raw: string }
  | { kind: 'output'; paneId: string; data: string };

export class ControlParser {
  private block: { guard: string; lines: string[]; fromClient: boolean } | null = null;

  /** Feed one line (without its `\n`); returns the event it completes, if any. */
  push(line: string): ControlEvent | null {
    if (this.block) {
      const end = /^%(end|error) (\S+ \S+ \S+)$/.exec(line);
      if (end && end[2] === this.block.guard) {
        const { lines, fromClient } = this.block;
        this.block = null;
        return { kind: 'reply', ok: end[1] === 'end', fromClient, lines };
      }
      this.block.lines.push(line);
      return null;
    }
    const begin = /^%begin (\S+ \S+ (\S+))$/.exec(line);
    if (begin) {
      this.block = { guard: begin[1]!, lines: [], fromClient: begin[2] !== '0' };
      return null;
    }
    if (line.startsWith('%output ')) {
      const rest = line.slice('%output '.length);
      const space = rest.indexOf(' ');
      const paneId = space < 0 ? rest : rest.slice(0, space);
      return { kind: 'output', paneId, data: space < 0 ? '' : unescapeOutput(rest.slice(space + 1)) };
    }
    if (line.startsWith('%extended-output ')) {
      // %extended-output %pane age ... : data  (what tmux sends instead of %output with pause-after)
      const m = /^%extended-output (%\d+) .*? : (.*)$/.exec(line);
      if (m) return { kind: 'output', paneId: m[1]!, data: unescapeOutput(m[2]!) };
    }
    if (line.startsWith('%')) {
      const parts = line.slice(1).split(' ');
      return { kind: 'notification', name: parts[0] ?? '', args: parts.slice(1), raw: line };
    }
    // A stray line outside a block (tmux prints none in practice); ignore rather than guess.
    return null;
  }
}

/** %output escapes bytes below 32 and the backslash as `\ooo` octal. */
export function unescapeOutput(data: string): string {
  return data.replace(/\\([0-7]{3})/g, (_m, oct: string) => String.fromCharCode(parseInt(oct, 8)));
}
