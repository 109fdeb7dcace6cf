import { useSyncExternalStore } from 'react';
import { type AuthState, auth } from '../lib/auth-state';

/** Whether this browser is a paired device; re-renders when that changes. */
export function useAuth(): AuthState {
  return useSyncExternalStore(auth.subscribe, auth.getState);
}
