import type { DiffLine, ReviewComment } from '@collie/protocol';

/** Where a comment sits: a file, a side, a line number. */
export function lineKey(path: string, line: DiffLine): string {
  return line.new !== null ? `${path}\nnew\n${line.new}` : `${path}\nold\n${line.old ?? 0}`;
}

/** The comment a tap on `line` makes, with the line quoted (cut to what the wire takes). */
export function commentOn(path: string, line: DiffLine, text: string): ReviewComment {
  const side = line.new !== null ? 'new' : 'old';
  return { path, line: (side === 'new' ? line.new : line.old) ?? 1, side, code: line.text.slice(0, 500), text };
}

export type Comments = ReadonlyMap<string, ReviewComment>;

/** Set (or, with empty text, remove) the comment on one line. Pure. */
export function putComment(comments: Comments, key: string, comment: ReviewComment | null): Comments {
  const next = new Map(comments);
  if (comment === null || comment.text.trim() === '') next.delete(key);
  else next.set(key, comment);
  return next;
}
