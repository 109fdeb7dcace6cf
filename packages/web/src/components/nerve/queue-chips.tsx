import type { QueuedMessage } from '@collie/protocol';
import { PHONE_SENDER } from '../../lib/nerve/roster';

export interface QueueChipsProps {
  readonly queue: readonly QueuedMessage[];
  readonly move: (queueId: string, by: -1 | 1) => void;
  /** Cancel (its text comes back into the composer); `edit` is the same, then you change it. */
  readonly cancel: (queueId: string) => void;
  readonly edit: (queueId: string) => void;
}

const from = (q: QueuedMessage): string => (q.origin === 'internal' ? 'scheduled' : q.origin === 'channel' ? (q.channel ?? 'channel') : q.sender === PHONE_SENDER ? 'you' : (q.sender ?? q.origin));

/** Queued messages above the composer, in run order (the top one runs next). */
export function QueueChips({ queue, move, cancel, edit }: QueueChipsProps) {
  if (queue.length === 0) return null;
  return (
    <ol className="queue-chips" aria-label="Queued messages">
      {queue.map((q, i) => {
        const mine = q.sender === PHONE_SENDER;
        return (
          <li key={q.queue_id} className="queue-chip">
            <span className="queue-pos">{i === 0 ? 'Next' : `${i + 1}`}</span>
            <span className="queue-text">
              <span className="queue-preview">{q.preview}</span>
              <span className="queue-from">{from(q)}</span>
            </span>
            <span className="queue-actions">
              <button type="button" className="button queue-btn" aria-label={`Move up: ${q.preview}`} aria-disabled={i === 0} onClick={() => i > 0 && move(q.queue_id, -1)}>
                ↑
              </button>
              <button type="button" className="button queue-btn" aria-label={`Move down: ${q.preview}`} aria-disabled={i === queue.length - 1} onClick={() => i < queue.length - 1 && move(q.queue_id, 1)}>
                ↓
              </button>
              {mine ? (
                <>
                  <button type="button" className="button queue-btn" aria-label={`Edit: ${q.preview}`} onClick={() => edit(q.queue_id)}>
                    Edit
                  </button>
                  <button type="button" className="button queue-btn" aria-label={`Cancel: ${q.preview}`} onClick={() => cancel(q.queue_id)}>
                    ✕
                  </button>
                </>
              ) : null}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
