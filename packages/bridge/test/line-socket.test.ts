import { stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { tempDir } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { askLineSocket, serveLineSocket } from '../src/config/line-socket';

const Command = z.object({ op: z.literal('add'), a: z.number(), b: z.number() }).strict();
const Reply = z.union([z.object({ type: z.literal('sum'), sum: z.number() }), z.object({ type: z.literal('error'), error: z.object({ code: z.string(), message: z.string() }) })]);
type Reply = z.infer<typeof Reply>;

/** What the server answers to raw bytes, as a CLI that got them wrong would send them. */
function raw(path: string, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(path);
    let buf = '';
    s.setEncoding('utf8');
    s.on('data', (d: string) => (buf += d));
    s.once('error', reject);
    s.once('end', () => resolve(buf));
    s.end(bytes);
  });
}

describe('line socket', () => {
  it('answers a command, refuses bad lines with their reason, and keeps serving', async () => {
    await using dir = await tempDir('collie-line-socket-');
    const path = join(dir.path, 'x.sock');
    const server = await serveLineSocket<z.infer<typeof Command>, Reply>(path, {
      name: 'test socket',
      maxLine: 1024,
      command: Command,
      run: async (c) => {
        if (c.a < 0) throw new Error('no negatives');
        return { type: 'sum', sum: c.a + c.b };
      },
      error: (code, message) => ({ type: 'error', error: { code, message } }),
    });
    try {
      expect((await stat(path)).mode & 0o777).toBe(0o600);
      expect(await askLineSocket(path, 'test socket', { op: 'add', a: 2, b: 3 }, Reply, 5_000)).toEqual({ type: 'sum', sum: 5 });
      expect(JSON.parse(await raw(path, 'not json\n'))).toEqual({ type: 'error', error: { code: 'bad_json', message: 'test socket: that line is not JSON' } });
      expect(JSON.parse(await raw(path, '{"op":"sub"}\n'))).toMatchObject({ error: { code: 'bad_request' } });
      expect(JSON.parse(await raw(path, `${'x'.repeat(2000)}\n`))).toEqual({ type: 'error', error: { code: 'bad_request', message: 'test socket: line over 1 KiB' } });
      expect(await askLineSocket(path, 'test socket', { op: 'add', a: -1, b: 3 }, Reply, 5_000)).toEqual({ type: 'error', error: { code: 'internal', message: 'test socket: no negatives' } });
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 300 }), async (line) => {
          const answer = Reply.parse(JSON.parse(await raw(path, `${line.replace(/\n/g, ' ')}\n`)));
          expect(answer.type === 'error' || /"op"\s*:\s*"add"/.test(line)).toBe(true);
        }),
        { numRuns: 60 },
      );
      expect(await askLineSocket(path, 'test socket', { op: 'add', a: 1, b: 1 }, Reply, 5_000)).toEqual({ type: 'sum', sum: 2 });
    } finally {
      await server.close();
    }
    // Nobody listening: null, so the CLI can say the bridge is not running.
    expect(await askLineSocket(path, 'test socket', { op: 'add', a: 1, b: 1 }, Reply, 5_000)).toBeNull();
  });
});
