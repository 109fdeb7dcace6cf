import { open } from 'node:fs/promises';
import { PaneChatImage } from '@collie/protocol';
import { ApiError } from '../http/api-error';

/** Pictures the phone is given: raster images a browser shows, never SVG or anything that runs. */
export const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** The largest picture served (decoded), and the longest transcript line read to find it. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const MAX_LINE_BYTES = Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 4 * 1024 * 1024;

/** The line of `path` that starts at `offset`, up to its newline; null when it is longer than the cap. */
async function lineAt(path: string, offset: number): Promise<string | null> {
  const file = await open(path, 'r');
  try {
    const parts: Buffer[] = [];
    let at = offset;
    let total = 0;
    for (;;) {
      const buf = Buffer.alloc(256 * 1024);
      const { bytesRead } = await file.read(buf, 0, buf.length, at);
      if (bytesRead === 0) break;
      const end = buf.subarray(0, bytesRead).indexOf(10);
      parts.push(buf.subarray(0, end < 0 ? bytesRead : end));
      total += end < 0 ? bytesRead : end;
      if (total > MAX_LINE_BYTES) return null;
      if (end >= 0) break;
      at += bytesRead;
    }
    return Buffer.concat(parts).toString('utf8');
  } finally {
    await file.close();
  }
}

const field = (v: unknown, key: string): unknown => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined);

/**
 * The picture `ref` names (`<line offset>.<block>[.<part>]`, as `imageRefs` wrote it) in the
 * transcript at `path`, the one the pane's finders located: a Claude Code message's image block,
 * or one inside a tool result's content. Refuses anything else: no such block (404), not a
 * raster image (415), too large (413).
 */
export async function transcriptImage(path: string, ref: string): Promise<{ type: string; bytes: Buffer }> {
  const none = new ApiError('not_found', 'chat: no such picture in this pane’s transcript');
  if (!PaneChatImage.shape.ref.safeParse(ref).success) throw none;
  const [offset = 0, block = 0, part] = ref.split('.').map(Number);
  const raw = await lineAt(path, offset);
  if (raw === null) throw new ApiError('payload_too_large', 'chat: that picture is too large to show');
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw none;
  }
  const content = field(field(json, 'message'), 'content');
  let b: unknown = Array.isArray(content) ? content[block] : undefined;
  if (part !== undefined) {
    const inner = field(b, 'type') === 'tool_result' ? field(b, 'content') : undefined;
    b = Array.isArray(inner) ? inner[part] : undefined;
  }
  if (field(b, 'type') !== 'image') throw none;
  const source = field(b, 'source');
  const type = field(source, 'media_type');
  const data = field(source, 'data');
  if (field(source, 'type') !== 'base64' || typeof data !== 'string') throw none;
  if (typeof type !== 'string' || !IMAGE_TYPES.has(type)) throw new ApiError('unsupported_media_type', 'chat: that block is not a picture the phone shows');
  if ((data.length * 3) / 4 > MAX_IMAGE_BYTES) throw new ApiError('payload_too_large', 'chat: that picture is too large to show');
  return { type, bytes: Buffer.from(data, 'base64') };
}
