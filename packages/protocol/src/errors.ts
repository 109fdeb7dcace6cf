import { z } from 'zod';
import { SendReceipt } from './send';

/** Stable error codes shared by every wire. Map to HTTP status in one place: `httpStatus`. */
export const ErrorCode = z.enum([
  'bad_request',
  'bad_json',
  'not_found',
  'method_not_allowed',
  'forbidden_origin',
  'forbidden_host',
  'payload_too_large',
  'unsupported_media_type',
  'internal',
  'starting',
  'conflict',
  'empty_text',
  'request_id_reused',
  'unauthorized',
  'device_revoked',
  'device_may_not_send',
  'pairing_failed',
  'pairing_locked',
  'upload_too_large',
  'upload_type',
  'bad_name',
  'outside_root',
  'forbidden_path',
  'bad_endpoint',
  'member_unreachable',
  'nerve_unavailable',
  'bad_time',
  'no_reset_time',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const httpStatus: Record<ErrorCode, number> = {
  bad_request: 400,
  bad_json: 400,
  not_found: 404,
  method_not_allowed: 405,
  forbidden_origin: 403,
  forbidden_host: 403,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal: 500,
  /** The bridge listens but is still finding its panes. */
  starting: 503,
  /** The request no longer fits where the thing stands (a send already typed cannot be cancelled). */
  conflict: 409,
  empty_text: 400,
  request_id_reused: 409,
  unauthorized: 401,
  device_revoked: 401,
  /** A watch-only device asked for a write (a send, keys, an answer, a message, a change of the machine). */
  device_may_not_send: 403,
  pairing_failed: 401,
  pairing_locked: 429,
  /** An upload over `MAX_UPLOAD_BYTES` (10 MB). */
  upload_too_large: 413,
  /** An upload whose bytes are not an image, a PDF or UTF-8 text. */
  upload_type: 415,
  /** A file name from the phone with a path, control or direction characters. */
  bad_name: 400,
  /** A file path from the phone that leads (through `..` or a symlink) outside the pane's repository or folder. */
  outside_root: 403,
  /** A file path from the phone in or through a `.git` folder, which holds credentials and the repository's own commands: never served. */
  forbidden_path: 403,
  /** A push subscription whose endpoint is not https on a public host name (loopback, LAN, an IP address, a local name). */
  bad_endpoint: 400,
  /** A crew lead asked to act on a member's pane while that member is not connected. */
  member_unreachable: 503,
  /** `/api/nerve/*`: Nerve is not running, or its api.json cannot be read. */
  nerve_unavailable: 503,
  /** A send's `at` that is not an ISO 8601 time with its zone, is past, or is more than 7 days ahead. */
  bad_time: 400,
  /** A send `when: "limit-reset"` to a pane whose usage-limit reset time is not known. */
  no_reset_time: 409,
};

/** Body of every error answer: `{ "error": { "code": "...", "message": "..." } }`. */
export const ErrorBody = z.object({
  error: z.object({ code: ErrorCode, message: z.string() }),
  /** `request_id_reused`: the receipt of the request that id first named. */
  receipt: SendReceipt.optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
