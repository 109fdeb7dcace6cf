/**
 * The phone's sends on a lead: a member's pane (`@<member>/…`) is acted on by its member, through
 * its own send protocol; every other pane by this machine's send service.
 */
import { SendRefusal } from '../send/refusal';
import type { SendService } from '../send/send-service';
import type { Crew } from './index';

type PhoneSends = Pick<SendService, 'send' | 'keys' | 'answer' | 'cancel' | 'box'>;

export function phoneSends(local: PhoneSends, crew: () => Crew | null): PhoneSends {
  const member = (paneId: string) => {
    const c = crew();
    return c?.owns(paneId) ? c : null;
  };
  return {
    send: (paneId, text, requestId, later) => {
      const m = member(paneId);
      // A send that waits is kept by this machine's journal: a member's pane is not offered it yet.
      if (m && (later?.at !== undefined || later?.when !== undefined)) return Promise.reject(new SendRefusal('bad_request', "bridge: a send to a crew member's pane cannot wait for a time yet; send it when it is due"));
      return m?.send(paneId, text, requestId) ?? local.send(paneId, text, requestId, later);
    },
    keys: (paneId, keys, requestId) => member(paneId)?.keys(paneId, keys, requestId) ?? local.keys(paneId, keys, requestId),
    answer: (paneId, req) => member(paneId)?.answer(paneId, req) ?? local.answer(paneId, req),
    cancel: (paneId, requestId) => member(paneId)?.phone.cancel(paneId, requestId) ?? local.cancel(paneId, requestId),
    box: (paneId, req) => member(paneId)?.phone.box(paneId, req) ?? local.box(paneId, req),
  };
}
