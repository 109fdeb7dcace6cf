/**
 * The phone's sends on a lead: a member's pane (`@<member>/…`) is acted on by its member, through
 * its own send protocol; every other pane by this machine's send service.
 */
import type { SendService } from '../send/send-service';
import type { Crew } from './index';

type PhoneSends = Pick<SendService, 'send' | 'keys' | 'answer' | 'cancel' | 'box'>;

export function phoneSends(local: PhoneSends, crew: () => Crew | null): PhoneSends {
  const member = (paneId: string) => {
    const c = crew();
    return c?.owns(paneId) ? c : null;
  };
  return {
    send: (paneId, text, requestId) => member(paneId)?.send(paneId, text, requestId) ?? local.send(paneId, text, requestId),
    keys: (paneId, keys, requestId) => member(paneId)?.keys(paneId, keys, requestId) ?? local.keys(paneId, keys, requestId),
    answer: (paneId, req) => member(paneId)?.answer(paneId, req) ?? local.answer(paneId, req),
    cancel: (paneId, requestId) => member(paneId)?.phone.cancel(paneId, requestId) ?? local.cancel(paneId, requestId),
    box: (paneId, req) => member(paneId)?.phone.box(paneId, req) ?? local.box(paneId, req),
  };
}
