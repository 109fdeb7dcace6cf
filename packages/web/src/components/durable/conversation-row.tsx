import type { ClosedConversation, DurableConversation } from '@collie/protocol';
import { formatDuration } from '../../lib/duration';

/** A row's state mark, in its colour and in words. */
function Mark({ kind }: { readonly kind: 'waiting' | 'working' | 'open' | 'closed' }) {
  const look = { waiting: ['blocked', 'Needs you'], working: ['working', 'Working'], open: ['idle', 'Open'], closed: ['unknown', 'Closed'] }[kind];
  return (
    <span className={`pill pill-${look[0]} durable-mark`}>
      <span className="pill-dot" aria-hidden="true" />
      {look[1]}
    </span>
  );
}

const ago = (now: number, at: number) => formatDuration(now - at);

/** An open conversation: title, mark, time of last activity, and the question that waits (counted), else the subtitle. */
export function OpenRow({ agent, c, now }: { readonly agent: string; readonly c: DurableConversation; readonly now: number }) {
  const waiting = c.questions.length;
  return (
    <li className="row">
      <a className="row-link durable-conv" href={`#/durable/${encodeURIComponent(agent)}/${encodeURIComponent(c.id)}`}>
        <span className="durable-conv-head">
          <span className="durable-line1">{c.title ?? 'Untitled conversation'}</span>
          {waiting ? <span className="count needs-you" aria-label={`${waiting} waiting`}>{waiting}</span> : null}
          <Mark kind={waiting ? 'waiting' : c.working ? 'working' : 'open'} />
          <span className="durable-time">{ago(now, c.updatedAt)}</span>
        </span>
        <span className="durable-line2">{c.questions[0]?.title ?? c.subtitle ?? ''}</span>
      </a>
    </li>
  );
}

/** A closed conversation: tap to read it, read-only. */
export function ClosedRow({ agent, c, now }: { readonly agent: string; readonly c: ClosedConversation; readonly now: number }) {
  return (
    <li className="row durable-closed">
      <a className="row-link durable-conv" href={`#/durable-read/${encodeURIComponent(agent)}/${encodeURIComponent(c.id)}`}>
        <span className="durable-conv-head">
          <span className="durable-line1">{c.title ?? 'Untitled conversation'}</span>
          <Mark kind="closed" />
          <span className="durable-time">{ago(now, c.updatedAt)}</span>
        </span>
        <span className="durable-line2">{c.subtitle ?? ''}</span>
      </a>
    </li>
  );
}
