import { useCallback, useSyncExternalStore } from 'react';
import { useEventsClient } from '../../hooks/use-client';
import type { PaneChatState } from '../../lib/pane-chat/chat-state';
import { fetchHistory } from '../../lib/pane-chat/history';

/** Follows a pane's chat while mounted: its state (null before the first page) and a way to read History. */
export function usePaneChat(id: string): { readonly chat: PaneChatState | null; readonly older: () => Promise<void> } {
  const client = useEventsClient();
  const subscribe = useCallback((listener: () => void) => client.watchChat(id, listener), [client, id]);
  const get = useCallback(() => client.chats.state(id), [client, id]);
  const chat = useSyncExternalStore(subscribe, get);
  const older = useCallback(async () => {
    const now = client.chats.state(id);
    if (!now?.before) return;
    const page = await fetchHistory(id, now.before);
    if (page) client.chats.history(id, page, now.generation);
  }, [client, id]);
  return { chat, older };
}
