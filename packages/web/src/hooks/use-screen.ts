import type { PaneScreen } from '@collie/protocol';
import { useCallback, useSyncExternalStore } from 'react';
import { useEventsClient } from './use-client';

/** Subscribes to a pane's screen while the component is mounted; the last frame, or null. */
export function useScreen(id: string): PaneScreen | null {
  const client = useEventsClient();
  const subscribe = useCallback((listener: () => void) => client.watchScreen(id, listener), [client, id]);
  const frame = useCallback(() => client.screen(id), [client, id]);
  return useSyncExternalStore(subscribe, frame);
}
