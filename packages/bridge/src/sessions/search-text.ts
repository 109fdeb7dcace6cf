/**
 * The Sessions page's word search: a query is split into words, and a session matches when every
 * word is found (case-insensitive) in its title or its first message. Each session's searchable
 * text is made once, when its head is read (store-index.ts), so a search reads no file.
 */

/** The words of a query: split on white space, lower-cased; an empty query has none. */
export function queryWords(q: string | undefined): string[] {
  return (q ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
}

/** What a search looks in: the title and the first message, lower-cased, on separate lines. */
export function searchText(title: string | null, first: string | null): string {
  return `${title ?? ''}\n${first ?? ''}`.toLowerCase();
}

/** Every word is in the text (a word never spans the title and the first message: words hold no white space). */
export function hasWords(text: string, words: readonly string[]): boolean {
  for (const w of words) if (!text.includes(w)) return false;
  return true;
}
