import { MAX_UPLOAD_BYTES } from '@collie/protocol';
import { tooLarge } from './store';

/**
 * The request's bytes, read as they arrive and cut off at the cap: a 2 GB body is refused
 * after its first 10 MB, never buffered whole. A `content-length` over the cap is refused
 * before a byte is read.
 */
export async function readCapped(request: Request, max = MAX_UPLOAD_BYTES): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? 'NaN');
  if (Number.isFinite(declared) && declared > max) throw tooLarge(declared);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel();
      throw tooLarge(null);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
