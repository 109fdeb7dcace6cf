import { useState } from 'react';
import { postDurable } from '../../lib/durable/api';
import { lineStateAfter, type OwnLine } from '../../lib/durable/own-lines';
import { newRequestId } from '../../lib/request-ids';

/**
 * Your lines sent into one conversation (Send, or Steer into the running turn). A line shows
 * at once with its clock; a refused one ("Not sent") gives its words back to the field.
 */
export function useOwnLines(agent: string, conversationId: string, giveBack: (text: string) => void) {
  const [lines, setLines] = useState<readonly OwnLine[]>([]);
  const [sent, setSent] = useState(false);
  const update = (requestId: string, change: Partial<OwnLine>) => setLines((was) => was.map((l) => (l.requestId === requestId ? { ...l, ...change } : l)));

  const post = (line: OwnLine) => {
    void postDurable('message', { agent, conversationId, text: line.text, steer: line.steer, request_id: line.requestId }).then((r) => {
      const state = lineStateAfter(r.outcome);
      update(line.requestId, { state });
      setSent(state === 'sent');
      if (state === 'not_sent') giveBack(line.text);
    });
  };
  const send = (text: string, steer: boolean, seen: number) => {
    const line: OwnLine = { requestId: newRequestId(), text, at: Date.now(), state: 'sending', steer, seen };
    setLines((was) => [...was, line]);
    setSent(false);
    post(line);
  };
  /** "Sending, not confirmed": send again with the same request id. */
  const again = (line: OwnLine) => {
    update(line.requestId, { state: 'sending' });
    post(line);
  };
  return { lines, sent, send, again, clearSent: () => setSent(false) };
}
