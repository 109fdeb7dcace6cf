import { z } from 'zod';
import { MAX_SEND_CHARS, RequestId } from '../send';

/** Attachments: every body and answer of the `/api/uploads` and `/api/panes/:id/send-files` routes. */

/** At most this many bytes per uploaded file. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** At most this many files ride with one message. */
export const MAX_ATTACHMENTS = 10;
/** Uploads are removed this long after they arrive. */
export const UPLOAD_TTL_MS = 48 * 60 * 60 * 1000;

/** An upload's id: `u_` and 16 hex digits, chosen by the bridge. */
export const UploadId = z.string().regex(/^u_[0-9a-f]{16}$/, 'an upload id is u_ and 16 hex digits');
export type UploadId = z.infer<typeof UploadId>;

/** What the bytes are (never what the name says). */
export const UploadType = z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain']);
export type UploadType = z.infer<typeof UploadType>;

/** One stored upload. `name` is the sanitised file name the agent sees at the end of the path. */
export const Upload = z.object({
  id: UploadId,
  name: z.string().min(1).max(120),
  type: UploadType,
  size: z.number().int().min(1).max(MAX_UPLOAD_BYTES),
  /** ISO time after which the bridge removes it. */
  expiresAt: z.string(),
});
export type Upload = z.infer<typeof Upload>;

/** `POST /api/uploads?name=<file name>` (raw bytes, `application/octet-stream`) answers this. */
export const UploadAnswer = z.object({ upload: Upload });
export type UploadAnswer = z.infer<typeof UploadAnswer>;

/**
 * `POST /api/panes/:id/send-files`: a send through the send protocol whose text is the
 * attachments' paths in the agent's own syntax, then `text` (which may be empty).
 */
export const SendFilesRequest = z
  .object({
    text: z.string().max(MAX_SEND_CHARS),
    attachments: z.array(UploadId).min(1).max(MAX_ATTACHMENTS),
    request_id: RequestId,
  })
  .strict();
export type SendFilesRequest = z.infer<typeof SendFilesRequest>;
