import { useSyncExternalStore } from 'react';

function subscribe(listener: () => void): () => void {
  document.addEventListener('visibilitychange', listener);
  return () => document.removeEventListener('visibilitychange', listener);
}

function visible(): boolean {
  return document.visibilityState === 'visible';
}

/** Whether a person can see the page right now (not a background tab, not a locked phone). */
export function usePageVisible(): boolean {
  return useSyncExternalStore(subscribe, visible);
}
