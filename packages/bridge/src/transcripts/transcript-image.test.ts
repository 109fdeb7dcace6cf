import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../http/api-error';
import { parseClaudeLine } from './claude-lines';
import { MAX_IMAGE_BYTES, transcriptImage } from './transcript-image';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const image = (mediaType: string, data: string) => ({ type: 'image', source: { type: 'base64', media_type: mediaType, data } });
const line = (content: unknown[]) => JSON.stringify({ type: 'user', sessionId: 's', message: { role: 'user', content } });

/** Status of the refusal `transcriptImage` throws, or 200 with the bytes' length. */
async function status(path: string, ref: string): Promise<number | string> {
  try {
    const got = await transcriptImage(path, ref);
    return `${got.type} ${got.bytes.length}`;
  } catch (err) {
    if (err instanceof ApiError) return err.status;
    throw err;
  }
}

/**
 * The picture route's reader, on a Claude Code transcript written here: the references the
 * parser gives lead to the bytes; anything else is refused, whatever the reference says.
 */
describe('pictures in a Claude Code transcript', () => {
  it('serves the blocks the parser references and refuses the rest', async () => {
    await using dir = await tempDir('collie-transcript-image-');
    const path = join(dir.path, 's.jsonl');
    const first = line([{ type: 'text', text: 'hello' }, image('image/png', PNG.toString('base64'))]);
    const second = line([{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'read' }, image('image/png', PNG.toString('base64')), image('image/svg+xml', Buffer.from('<svg/>').toString('base64'))] }]);
    const third = line([image('image/png', 'A'.repeat(Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 8))]);
    await writeFile(path, `${first}\n${second}\n${third}\n`);
    const at2 = Buffer.byteLength(first) + 1;
    const at3 = at2 + Buffer.byteLength(second) + 1;

    // The parser's references: the pasted picture, and both blocks of the tool result.
    const refs = [...parseClaudeLine(first, 0), ...parseClaudeLine(second, at2)].flatMap((e) => (e.kind === 'session' ? [] : (e.images ?? [])));
    expect(refs).toEqual([
      { ref: '0.1', mediaType: 'image/png' },
      { ref: `${at2}.0.1`, mediaType: 'image/png' },
      { ref: `${at2}.0.2`, mediaType: 'image/svg+xml' },
    ]);
    expect(await status(path, '0.1')).toBe(`image/png ${PNG.length}`);
    expect(await status(path, `${at2}.0.1`)).toBe(`image/png ${PNG.length}`);
    // Not a raster picture: 415, even though the block is an image.
    expect(await status(path, `${at2}.0.2`)).toBe(415);
    // A text block, a block that is not there, a line that is not a line's start, a bad ref: 404.
    expect(await status(path, '0.0')).toBe(404);
    expect(await status(path, `${at2}.0.7`)).toBe(404);
    expect(await status(path, '5.1')).toBe(404);
    expect(await status(path, '../../etc/passwd')).toBe(404);
    // Over the cap: 413, without decoding it.
    expect(await status(path, `${at3}.0`)).toBe(413);
  });
});
