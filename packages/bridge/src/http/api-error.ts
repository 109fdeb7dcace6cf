import type { Context } from 'hono';
import { httpStatus, type ErrorBody, type ErrorCode, type SendReceipt } from '@collie/protocol';
import { SendRefusal } from '../send/refusal';

/** The one error type of the HTTP and WebSocket layers; its code maps to a status once. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** `request_id_reused`: the receipt that id already names, sent with the error. */
    readonly receipt?: SendReceipt,
  ) {
    super(message);
  }

  get status(): number {
    return httpStatus[this.code];
  }

  body(): ErrorBody {
    return this.receipt ? { error: { code: this.code, message: this.message }, receipt: this.receipt } : { error: { code: this.code, message: this.message } };
  }
}

/** Any thrown value, as an ApiError; unknown ones become `internal` and keep their cause. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof SendRefusal) return new ApiError(err.code, err.message, err.receipt);
  const e = new ApiError('internal', 'bridge: internal error while answering the request');
  e.cause = err;
  return e;
}

/** Answer a request with the error body and its status. */
export function fail(c: Context, err: unknown): Response {
  const e = toApiError(err);
  return c.json(e.body(), e.status as 400);
}
