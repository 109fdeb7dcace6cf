import type { DurableItem, TapOutcome } from '@collie/protocol';

/**
 * Your own line in a durable agent's chat (the page's table "Your own line"): drawn the moment
 * you tap Send, with a clock, until the agent's own copy of it arrives and takes its place.
 * Pure: the items, the lines and the clock are passed in.
 */
export type OwnLineState = 'sending' | 'sent' | 'unsure' | 'not_sent';

export interface OwnLine {
  readonly requestId: string;
  readonly text: string;
  /** When Send was tapped (the phone's clock). */
  readonly at: number;
  readonly state: OwnLineState;
  readonly steer: boolean;
  /** How many items the thread held when Send was tapped. */
  readonly seen: number;
  /** The thread's newest item when Send was tapped (null: none): the line is drawn right after it. */
  readonly after: string | null;
  /** The durable agent's reason when it refused the line. */
  readonly reason: string | null;
}

/** A durable agent that does not echo the request id is matched by the same text within this. */
export const MATCH_MS = 30_000;
/** A line the durable agent never writes back stops showing after this. */
export const GONE_MS = 10 * 60_000;

type UserItem = Extract<DurableItem, { kind: 'user' }>;

/** The state a send's outcome leaves the line in. */
export function lineStateAfter(outcome: TapOutcome): OwnLineState {
  switch (outcome) {
    case 'taken':
      return 'sent';
    case 'unsure':
      return 'unsure';
    default:
      // refused, moved on, or any outcome that says it did not run: "Not sent", words back in the field
      return 'not_sent';
  }
}

/** The words beside a line's clock; null: the clock alone. */
export function ownLineWords(state: OwnLineState): string | null {
  return state === 'unsure' ? 'Sending, not confirmed' : state === 'not_sent' ? 'Not sent' : null;
}

/**
 * The lines still drawn: those the agent has not written back (by request id, else by the same
 * text within 30 s, each item answering one line) and not older than 10 minutes.
 */
export function pendingLines(lines: readonly OwnLine[], items: readonly DurableItem[], now: number): OwnLine[] {
  const users = items.filter((i): i is UserItem => i.kind === 'user');
  const used = new Set<string>();
  const out: OwnLine[] = [];
  for (const line of lines) {
    if (now - line.at > GONE_MS) continue;
    // Refused: "Not sent" stands, even when the agent wrote its copy before it refused.
    if (line.state === 'not_sent') {
      out.push(line);
      continue;
    }
    const echo =
      users.find((u) => !used.has(u.id) && u.requestId === line.requestId) ??
      users.find((u) => !used.has(u.id) && u.requestId === null && u.text === line.text && Math.abs(u.at - line.at) <= MATCH_MS);
    if (echo) {
      used.add(echo.id);
      continue;
    }
    out.push(line);
  }
  return out;
}

/**
 * Three dots say the agent is working while your line is the newest thing in the thread and
 * it has not answered: a line still pending (not refused), or its own copy as the last item.
 */
export function showsWorking(pending: readonly OwnLine[], items: readonly DurableItem[]): boolean {
  const newest = pending.at(-1);
  if (newest) return newest.state !== 'not_sent' && items.length <= newest.seen;
  return items.at(-1)?.kind === 'user';
}

/** The agent's copies of lines it refused: the thread leaves them out, "Not sent" stands in their place. */
export function refusedEchoes(lines: readonly OwnLine[], items: readonly DurableItem[]): DurableItem[] {
  const refused = new Set(lines.filter((l) => l.state === 'not_sent').map((l) => l.requestId));
  return refused.size === 0 ? [...items] : items.filter((i) => !(i.kind === 'user' && i.requestId !== null && refused.has(i.requestId)));
}

/**
 * Your lines in their place in time order among the thread's rows: each right after the item
 * that was newest when it was sent (in send order among lines at the same place); a line whose
 * item is no longer in the thread goes at the end.
 */
export function placeOwnLines<R>(rows: readonly R[], idOf: (row: R) => string | null, lines: readonly OwnLine[]): (R | OwnLine)[] {
  const ids = new Set(rows.map(idOf).filter((id): id is string => id !== null));
  const at = new Map<string | null, OwnLine[]>();
  const end: OwnLine[] = [];
  for (const l of lines) {
    if (l.after === null || ids.has(l.after)) at.set(l.after, [...(at.get(l.after) ?? []), l]);
    else end.push(l);
  }
  const out: (R | OwnLine)[] = [...(at.get(null) ?? [])];
  for (const row of rows) {
    out.push(row);
    const id = idOf(row);
    if (id !== null && at.has(id)) {
      out.push(...at.get(id)!);
      at.delete(id);
    }
  }
  return [...out, ...end];
}

/** A queue chip's preview of a message's words (as Nerve makes it): one line, at most 120 characters. */
export const queuePreview = (text: string): string => text.replace(/\s+/g, ' ').trim().slice(0, 120);
