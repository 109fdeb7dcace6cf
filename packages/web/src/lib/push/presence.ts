import { useEffect } from 'react';
import { reportPresence } from './push-api';

/** Inside the bridge's 2-minute window with room to spare. */
const BEAT_MS = 30_000;

/**
 * While the app is open and visible it tells the bridge so (at once and every 30 s), and once
 * more when it is hidden: nobody gets a push while they are looking at the app.
 */
export function usePushPresence(): void {
  useEffect(() => {
    const visible = () => document.visibilityState === 'visible';
    const beat = () => void reportPresence(visible());
    const onChange = () => beat();
    beat();
    const timer = window.setInterval(() => visible() && beat(), BEAT_MS);
    document.addEventListener('visibilitychange', onChange);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onChange);
    };
  }, []);
}
