import type { ReviewComment } from '@collie/protocol';
import { quotePath } from '../quote-path';

/**
 * The review comments as one message to the agent: each with its file and line, the line
 * quoted, then the comment (a path with spaces in double quotes); in file order, then line order. Pure. It starts with a word, never
 * with a mode character (`/`, `!`).
 *
 * @example
 * reviewMessage([{ path: 'src/a.ts', line: 3, side: 'new', code: 'let x = 1', text: 'make it const' }]);
 * // 'Review comments on your changes (1):\n\nsrc/a.ts:3\n> let x = 1\nmake it const'
 */
export function reviewMessage(comments: readonly ReviewComment[]): string {
  const sorted = [...comments].sort((a, b) => (a.path === b.path ? a.line - b.line : a.path < b.path ? -1 : 1));
  const parts = sorted.map((c) => {
    const where = `${quotePath(c.path)}:${c.line}${c.side === 'old' ? ' (a removed line)' : ''}`;
    const quote = c.code.trim() === '' ? '' : `\n> ${c.code.trim()}`;
    return `${where}${quote}\n${c.text.trim()}`;
  });
  return `Review comments on your changes (${comments.length}):\n\n${parts.join('\n\n')}`;
}
