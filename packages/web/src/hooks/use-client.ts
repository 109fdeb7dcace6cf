import { createContext, use, useSyncExternalStore } from 'react';
import type { ClientState, EventsClient } from '../lib/events-client';

/** The one events client of the page, provided by `App`. */
export const ClientContext = createContext<EventsClient | null>(null);

export function useEventsClient(): EventsClient {
  const client = use(ClientContext);
  if (!client) throw new Error('useEventsClient: no ClientContext above this component');
  return client;
}

/** The model and the connection state; re-renders on every change the client publishes. */
export function useClientState(): ClientState {
  const client = useEventsClient();
  return useSyncExternalStore(client.subscribe, client.getState);
}

/** Whether this device may send (its right, read from the events hello); false: watch only. */
export function useMaySend(): boolean {
  const client = useEventsClient();
  return useSyncExternalStore(client.subscribe, () => client.getState().maySend);
}
