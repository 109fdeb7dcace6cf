/**
 * What this page sent, by request id, so Edit can give back the whole text (a receipt holds
 * only a short, masked summary); and the one way Recent sends hands text to the composer.
 */
const sentTexts = new Map<string, string>();
const listeners = new Map<string, Set<(text: string) => void>>();

/** Remembers the text of a send made from this page. */
export function rememberSent(requestId: string, text: string): void {
  sentTexts.set(requestId, text);
}

/** The full text of a send made from this page, or null for one made elsewhere. */
export function sentText(requestId: string): string | null {
  return sentTexts.get(requestId) ?? null;
}

/** Puts `text` in the pane's composer, to be edited and sent again. */
export function editInComposer(paneId: string, text: string): void {
  for (const listener of listeners.get(paneId) ?? []) listener(text);
}

/** The composer of `paneId` listens for text to edit; returns the function that stops it. */
export function onEdit(paneId: string, listener: (text: string) => void): () => void {
  const set = listeners.get(paneId) ?? new Set();
  set.add(listener);
  listeners.set(paneId, set);
  return () => set.delete(listener);
}
