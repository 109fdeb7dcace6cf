import { ErrorBody, ReceiptBody, type SendReceipt } from '@collie/protocol';

/**
 * How the bridge answered one send, keys or answer call:
 * - `receipt`: it took the request; the receipt says where it stands.
 * - `refused`: it answered with an error and did nothing.
 * - `unsure`: no answer we can read (the network dropped, a 5xx, a garbled body). The
 *   request may have arrived, so a retry must carry the same request id.
 */
export type ActionResult =
  | { readonly kind: 'receipt'; readonly receipt: SendReceipt }
  | { readonly kind: 'refused'; readonly code: string; readonly message: string }
  | { readonly kind: 'unsure'; readonly detail: string };

/** Reads an HTTP answer (status and parsed JSON, or null when the body was not JSON). Pure. */
export function readActionAnswer(status: number, body: unknown): ActionResult {
  if (status >= 200 && status < 300) {
    const parsed = ReceiptBody.safeParse(body);
    if (parsed.success) return { kind: 'receipt', receipt: parsed.data.receipt };
    return { kind: 'unsure', detail: `the bridge answered ${status} without a receipt` };
  }
  // A 5xx may come after the bridge had already acted on the request; only a 4xx says it did not.
  if (status >= 400 && status < 500) {
    const parsed = ErrorBody.safeParse(body);
    if (parsed.success) return { kind: 'refused', code: parsed.data.error.code, message: parsed.data.error.message };
    return { kind: 'refused', code: `http_${status}`, message: `the bridge answered ${status}` };
  }
  return { kind: 'unsure', detail: `the bridge answered ${status}` };
}
