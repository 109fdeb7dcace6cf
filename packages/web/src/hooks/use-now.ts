import { useSyncExternalStore } from 'react';
import { clockNow, subscribeClock } from '../lib/clock';

/** The current time, updated by the page's one shared one-second clock. */
export function useNow(): number {
  return useSyncExternalStore(subscribeClock, clockNow);
}
