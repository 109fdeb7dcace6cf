/**
 * Opening a pane's Messages sheet from anywhere on its page (the pane's menu, a card, a chip),
 * on one message or at the top. The sheet (components/walky/walky-pane.tsx) listens.
 */
type Open = (messageId: string | null) => void;
const listeners = new Map<string, Set<Open>>();

export function openMessages(paneId: string, messageId: string | null = null): void {
  for (const l of listeners.get(paneId) ?? []) l(messageId);
}

export function onOpenMessages(paneId: string, listener: Open): () => void {
  const set = listeners.get(paneId) ?? new Set<Open>();
  listeners.set(paneId, set);
  set.add(listener);
  return () => set.delete(listener);
}
