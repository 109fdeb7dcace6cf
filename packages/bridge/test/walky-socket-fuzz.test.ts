import { stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WALKY_MAX_LINE, WalkyAnswer } from '@collie/protocol';
import { tempDir, testBridgeOptions } from '@collie/testkit';
import { startBridge } from '../src/bridge';

/** Write `chunks` (then end, or not), resolve with everything the bridge answered. */
function exchange(path: string, chunks: readonly (string | Buffer)[], end: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(path);
    let buf = '';
    s.on('connect', () => {
      for (const c of chunks) s.write(c);
      if (end) s.end();
    });
    s.on('data', (d) => (buf += d.toString()));
    s.on('close', () => resolve(buf));
    s.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? resolve(buf) : reject(e)));
  });
}

const hostile = fc.oneof(
  fc.string(),
  fc.json(),
  fc.constantFrom('{"v":1}', '{"verb":"send"}', '[]', 'null', '{"v":1,"verb":"who","pid":-1}', '{"v":1,"verb":"who","pid":1,"__proto__":{"x":1}}', '{"v":1,"verb":"inbox","pid":1,"id":"wt_../../../etc"}', '\u0000\u0000', '{"v":1,"verb":"send","pid":1,"to":"local/%1","body":"' + 'x'.repeat(17000) + '"}'),
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')),
);

describe('the walky socket under malformed and hostile lines', () => {
  it('is 0600, answers every connection with one line, and keeps serving', async () => {
    await using state = await tempDir('collie-walky-fuzz');
    await using tmuxDir = await tempDir('collie-walky-fuzz-tmux');
    await using bridge = await startBridge(testBridgeOptions(tmuxDir.path, state.path));
    void bridge;
    const sock = join(state.path, 'walky', 'sock');
    expect((await stat(sock)).mode & 0o777).toBe(0o600);
    expect((await stat(join(state.path, 'walky'))).mode & 0o777).toBe(0o700);

    await fc.assert(
      fc.asyncProperty(hostile, fc.boolean(), async (line, newline) => {
        const answer = await exchange(sock, [newline ? `${line}\n` : line], true);
        const first = answer.split('\n')[0]!;
        const parsed = WalkyAnswer.parse(JSON.parse(first));
        if (!parsed.ok) expect(parsed.error.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );

    // An oversized line without a newline: answered too_large, not buffered for ever.
    const big = await exchange(sock, [Buffer.alloc(WALKY_MAX_LINE + 10, 'a')], false);
    expect(JSON.parse(big.split('\n')[0]!)).toMatchObject({ ok: false, error: { code: 'too_large' } });
    // Many at once.
    const many = await Promise.all(Array.from({ length: 50 }, (_, i) => exchange(sock, [`{"v":1,"verb":"status","pid":${process.pid},"id":"wt_${String(i).padStart(12, '0')}"}\n`], true)));
    for (const a of many) expect(JSON.parse(a)).toMatchObject({ ok: false, error: { code: 'unknown_id' } });
    // Still serving a good request.
    const who = WalkyAnswer.parse(JSON.parse(await exchange(sock, [`{"v":1,"verb":"who","pid":${process.pid}}\n`], true)));
    expect(who).toMatchObject({ ok: true, verb: 'who', you: null, panes: [] });
  }, 120_000);
});
