import { ErrorBody, MAX_UPLOAD_BYTES, UploadAnswer, type Upload } from '@collie/protocol';

/** How one upload ended: stored, or refused with the bridge's words (or the phone's own, before sending). */
export type UploadResult = { readonly ok: true; readonly upload: Upload } | { readonly ok: false; readonly message: string };

/** A minute per 10 MB on a slow phone link; longer means the call is lost. */
const UPLOAD_TIMEOUT_MS = 120_000;

/**
 * `POST /api/uploads?name=…` with the file's bytes. The phone checks the size first (the
 * bridge checks it again, with the type by the bytes and the name); never throws.
 */
export async function uploadFile(file: Blob, name: string): Promise<UploadResult> {
  if (file.size > MAX_UPLOAD_BYTES) return { ok: false, message: `${name}: over 10 MB (${(file.size / 1048576).toFixed(1)} MB)` };
  if (file.size === 0) return { ok: false, message: `${name}: the file is empty` };
  let response: Response;
  try {
    response = await fetch(`/api/uploads?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', accept: 'application/json' },
      body: file,
      cache: 'no-store',
      signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
    });
  } catch (error) {
    return { ok: false, message: `${name}: the upload got no answer (${error instanceof Error ? error.message : String(error)})` };
  }
  const body: unknown = await response.json().catch(() => null);
  return readUploadAnswer(name, response.status, body);
}

/** Reads the bridge's answer to an upload. Pure. */
export function readUploadAnswer(name: string, status: number, body: unknown): UploadResult {
  if (status >= 200 && status < 300) {
    const parsed = UploadAnswer.safeParse(body);
    return parsed.success ? { ok: true, upload: parsed.data.upload } : { ok: false, message: `${name}: the bridge answered without an upload` };
  }
  const error = ErrorBody.safeParse(body);
  // The bridge's messages start with the part that speaks (`uploads: …`); the name says which file.
  return { ok: false, message: `${name}: ${error.success ? error.data.error.message.replace(/^uploads: /, '') : `the bridge answered ${status}`}` };
}

/** `1.2 MB`, `340 KB`, `12 B`. */
export function sizeWords(bytes: number): string {
  if (bytes >= 1048576) return `${(bytes / 1048576).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** Where the bridge gives a stored picture back (`GET /api/uploads/:id`): by id, never by path. */
export function uploadUrl(id: string): string {
  return `/api/uploads/${encodeURIComponent(id)}`;
}

/** A file the phone attached, as the agent's text names it: `…/u_<16 hex>-<name>`, with Claude Code's `@` and quotes when the path has spaces. */
const UPLOAD_REF = /@?(?:"[^"\n]*\/(u_[0-9a-f]{16})-([A-Za-z0-9._-]{1,120})"|[^\s"]*\/(u_[0-9a-f]{16})-([A-Za-z0-9._-]{1,120}))/g;

export type TextPart = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'upload'; readonly id: string; readonly name: string };

/** Splits text around the attachments it names, so a chat shows each as its picture or its name, never the bridge's path. Pure. */
export function splitUploads(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const m of text.matchAll(UPLOAD_REF)) {
    const start = m.index;
    if (start > at) parts.push({ kind: 'text', text: text.slice(at, start) });
    parts.push({ kind: 'upload', id: m[1] ?? m[3] ?? '', name: m[2] ?? m[4] ?? '' });
    at = start + m[0].length;
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) });
  return parts;
}

/** Whether a stored file's name says it is a picture the bridge gives back. */
export const isPictureName = (name: string): boolean => /\.(png|jpe?g|gif|webp)$/i.test(name);
