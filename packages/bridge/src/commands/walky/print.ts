import type { BroadcastLine, WalkyAnswer, WalkyMessage, WhoRow } from '@collie/protocol';
import { verifiedWords, walkyWords } from '@collie/protocol/walky-words';
import { headerStart } from '../../walky/body';

/** What a command prints and the code it exits with. */
export interface Printed {
  out: string;
  err: string;
  code: number;
}

/** send: 0 accepted, delivered, inbox-only; 4 refused; 1 unknown. */
export function sendCode(m: WalkyMessage): number {
  return m.state === 'refused' ? 4 : m.state === 'unknown' ? 1 : 0;
}

/** The three lines of `send` (four with "check later"). */
export function receiptLines(m: WalkyMessage): string {
  const to = m.to ? `to ${m.to.address}, ${m.to.harness}, ${m.to.label}` : `to ${m.asked}`;
  const lines = [m.id, to, walkyWords(m.state, m.reason)];
  if (m.state === 'accepted') lines.push(`check later: collie walky status ${m.id}`);
  return `${lines.join('\n')}\n`;
}

/** `status <id>`: the id, then one line per pane with its state and how the sender was known. */
export function statusLines(m: WalkyMessage): string {
  const pane = m.to?.pane ?? (m.asked || 'no pane');
  return `${m.id}\n${pane}  ${walkyWords(m.state, m.reason)}  (${verifiedWords(m.verified, m.from.member)})\n`;
}

/** `status <broadcast id>`: the id, then one line per pane; a machine that refused it whole as `<member>/all`. */
export function broadcastStatusLines(id: string, lines: readonly BroadcastLine[]): string {
  return `${[id, ...lines.map((l) => `${l.pane}  ${walkyWords(l.state, l.reason)}  (${verifiedWords(l.verified, l.by)})`)].join('\n')}\n`;
}

export function messageText(m: WalkyMessage): string {
  return `${headerStart(m)}\n${m.body}\n`;
}

export function whoTable(rows: readonly WhoRow[], you: string | null): string {
  const others = rows.filter((r) => !r.you);
  if (others.length === 0) return you ? `You are ${you}. No other agent pane yet. A message needs two.\n` : 'No agent pane yet.\n';
  const head = ['ADDRESS', 'MACHINE', 'HARNESS', 'LABEL', 'STATE'];
  const cells = rows.map((r) => [r.address, r.machine, r.harness, r.label, `${r.state}${r.you ? '  (you)' : ''}`]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) => c.map((x, i) => (i === c.length - 1 ? x : x.padEnd(widths[i]! + 2))).join('').trimEnd();
  return `${[head, ...cells].map(line).join('\n')}\n`;
}

/** The printed form of an answer, for the verb that asked. */
export function printAnswer(a: WalkyAnswer, json: boolean): Printed {
  switch (a.verb) {
    case 'error': {
      const code = a.error.code === 'unknown_id' ? 3 : a.error.code === 'not_in_pane' || a.error.code === 'not_proved' ? 4 : 1;
      return { out: '', err: `${a.error.message}\n`, code };
    }
    case 'who': {
      // On a crew member: its own panes, then where to see the others.
      const more = a.lead ? `other machines: run \`collie walky who\` on the lead (${a.lead}), or use the phone\n` : '';
      return { out: json ? `${JSON.stringify(a)}\n` : whoTable(a.panes, a.you) + more, err: '', code: 0 };
    }
    case 'send':
      return { out: json ? `${JSON.stringify(a.message)}\n` : receiptLines(a.message), err: '', code: sendCode(a.message) };
    case 'status':
      if (a.broadcast) return { out: json ? `${JSON.stringify(a.broadcast)}\n` : broadcastStatusLines(a.broadcast.id, a.broadcast.panes), err: '', code: 0 };
      if (!a.message) return { out: '', err: 'the bridge answered status with no receipt\n', code: 1 };
      return { out: json ? `${JSON.stringify(a.message)}\n` : statusLines(a.message), err: '', code: 0 };
    case 'inbox': {
      if (json) return { out: `${JSON.stringify(a.messages)}\n`, err: '', code: 0 };
      if (a.messages.length === 0) return { out: 'No messages.\n', err: '', code: 0 };
      return { out: a.messages.map(messageText).join('\n'), err: '', code: 0 };
    }
  }
}
