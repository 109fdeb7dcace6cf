import type { ClosedConversation, ClosedListResult } from '@collie/protocol';

/** What the foot of the conversation list holds, and the closed rows drawn. */
export interface ClosedList {
  readonly rows: readonly ClosedConversation[];
  /** The cursor of the next 100, when the durable agent has more. */
  readonly next: string | null;
  readonly note: string | null;
}

export const EMPTY_CLOSED: ClosedList = { rows: [], next: null, note: null };

/**
 * One read of the closed list folded into what is drawn (the page's table "At the foot of the
 * list"). A page read after the first appends; a read that fails keeps the rows already drawn.
 * `got` null: the read failed on the way.
 */
export function foldClosed(was: ClosedList, got: ClosedListResult | null, paging: boolean): ClosedList {
  if (got === null) return { ...was, note: "Couldn't load the conversations. Try again." };
  switch (got.state) {
    case 'ok':
      return { rows: paging ? [...was.rows, ...got.conversations] : got.conversations, next: got.next, note: null };
    case 'no_list':
      return { rows: [], next: null, note: 'This durable agent does not keep a list of its conversations.' };
    case 'no_answer':
      return { ...was, note: 'The durable agent did not answer. Try again in a moment.' };
    case 'version_mismatch':
      return { ...was, note: got.note };
    case 'failed':
      return { ...was, note: "Couldn't load the conversations. Try again." };
  }
}
