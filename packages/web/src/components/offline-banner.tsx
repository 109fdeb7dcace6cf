import { useClientState, useEventsClient } from '../hooks/use-client';
import { clockTime, downWords } from '../lib/down-words';

/**
 * While the stream is down: since when, why when the bridge said so, and Retry now. The view
 * below it is the last one the bridge sent, greyed with its timers frozen (see `Elapsed`).
 */
export function OfflineBanner() {
  const { down } = useClientState();
  const client = useEventsClient();
  if (down === null) return null;
  const words = downWords(down, clockTime);
  return (
    <div className={`offline offline-${down.why}`} role="status">
      <p className="offline-text">
        <strong className="offline-title">{words.title}</strong>
        <span className="offline-detail">{words.detail}</span>
      </p>
      <button type="button" className="offline-retry" onClick={() => void client.wake()}>
        Retry now
      </button>
    </div>
  );
}
