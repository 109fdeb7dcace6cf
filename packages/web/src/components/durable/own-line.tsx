import { ownLineWords, type OwnLine } from '../../lib/durable/own-lines';

/** Your line before the durable agent's own copy of it takes its place: a small clock, and what became of it (a refused one with the durable agent's reason). */
export function OwnLineRow({ line, again }: { readonly line: OwnLine; readonly again: (l: OwnLine) => void }) {
  const words = ownLineWords(line.state);
  return (
    <div className={`chat-item chat-user chat-own own-${line.state}`}>
      {line.text}
      <span className="own-state">
        {line.state === 'not_sent' ? null : (
          <span className="own-clock" aria-label="sending">
            ◷
          </span>
        )}
        {words ? <span className="own-words">{words}</span> : null}
        {line.state === 'not_sent' && line.reason ? <span className="own-reason">{line.reason}</span> : null}
        {line.state === 'unsure' ? (
          <button type="button" className="link-button own-again" onClick={() => again(line)}>
            Send again
          </button>
        ) : null}
      </span>
    </div>
  );
}

/** Three dots while your line is the newest thing and the durable agent has not answered. */
export function WorkingDots() {
  return (
    <div className="chat-dots" role="status" aria-label="working">
      <span />
      <span />
      <span />
    </div>
  );
}
