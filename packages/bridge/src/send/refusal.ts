import type { SendReceipt } from '@collie/protocol';
import type { StoredSend } from './receipt-store';

/**
 * A request the send service refuses before it records or types anything: text that is
 * empty once cleaned (`empty_text`), or a request id already used for another request
 * (`request_id_reused`, with that request's receipt), a send-later time that is past or too
 * far (`bad_time`), or a wait for a pane's limit reset the bridge does not know (`no_reset_time`). The HTTP layer answers it as 400/409
 * (`http/api-error.ts`); other callers get it thrown from `SendService.send/keys/answer`.
 */
export class SendRefusal extends Error {
  constructor(
    readonly code: 'empty_text' | 'request_id_reused' | 'bad_time' | 'no_reset_time' | 'bad_request',
    message: string,
    readonly receipt?: SendReceipt,
  ) {
    super(message);
  }
}

/**
 * The idempotency-key rule: the same request again gets its receipt; the same id with
 * another request (other text, pane or route) is refused. Logs from before request hashes
 * carry none for ended sends: those are told apart by pane and route only.
 */
export function sameRequest(known: StoredSend, paneId: string, kind: SendReceipt['kind'], fingerprint: string): SendReceipt {
  const r = known.receipt;
  const same = r.paneId === paneId && r.kind === kind && (known.fingerprint === undefined || known.fingerprint === fingerprint);
  if (same) return r;
  throw new SendRefusal('request_id_reused', `bridge: request id '${r.requestId}' already named another request (${r.kind} to ${r.paneId}); use a new id`, r);
}
