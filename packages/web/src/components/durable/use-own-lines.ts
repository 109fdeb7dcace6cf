import { useEffect, useState } from 'react';
import { postDurable } from '../../lib/durable/api';
import { loadOwnLines, saveOwnLines } from '../../lib/durable/own-line-store';
import { lineStateAfter, type OwnLine } from '../../lib/durable/own-lines';
import { newRequestId } from '../../lib/request-ids';

/**
 * Your lines sent into one conversation (Send, or Steer into the running turn), kept in the
 * browser for 10 minutes. A line shows at once with its clock; a refused one ("Not sent")
 * gives its words back to the field and keeps the durable agent's reason.
 */
export function useOwnLines(agent: string, conversationId: string, giveBack: (text: string) => void) {
  const [lines, setLines] = useState<readonly OwnLine[]>(() => loadOwnLines(agent, conversationId));
  const [sent, setSent] = useState(false);
  useEffect(() => saveOwnLines(agent, conversationId, lines), [agent, conversationId, lines]);
  const update = (requestId: string, change: Partial<OwnLine>) => setLines((was) => was.map((l) => (l.requestId === requestId ? { ...l, ...change } : l)));

  const post = (line: OwnLine) => {
    void postDurable('message', { agent, conversationId, text: line.text, steer: line.steer, request_id: line.requestId }).then((r) => {
      const state = lineStateAfter(r.outcome);
      update(line.requestId, { state, reason: state === 'not_sent' ? r.reason : null });
      setSent(state === 'sent');
      if (state === 'not_sent') giveBack(line.text);
    });
  };
  /** `seen` and `after`: how many items the thread held and its newest item's id when Send was tapped. */
  const send = (text: string, steer: boolean, seen: number, after: string | null) => {
    const line: OwnLine = { requestId: newRequestId(), text, at: Date.now(), state: 'sending', steer, seen, after, reason: null };
    setLines((was) => [...was, line]);
    setSent(false);
    post(line);
  };
  /** "Sending, not confirmed": send again with the same request id. */
  const again = (line: OwnLine) => {
    update(line.requestId, { state: 'sending' });
    post(line);
  };
  /** Drops the lines with these words that were not refused (a message taken back before it ran). */
  const forget = (text: string) => setLines((was) => was.filter((l) => l.state === 'not_sent' || l.text !== text));
  return { lines, sent, send, again, forget, clearSent: () => setSent(false) };
}
