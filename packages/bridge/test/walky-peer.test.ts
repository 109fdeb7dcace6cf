import { spawn } from 'node:child_process';
import { readdir, readFile, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import { startBridge } from '../src/bridge';
import { fakePane } from './walky/fake-pane';
import { paneOf, walkyEnv } from './walky/kit';

const idle = (p: { harness: string; state: string }) => p.harness === 'claude' && (p.state === 'idle' || p.state === 'done');

/** One raw request line on the socket from this test's own process (outside any pane). */
function rawCall(path: string, req: unknown): Promise<{ ok: boolean; verb: string; error?: { code: string; message: string }; you?: string | null; message?: { state: string; reason: string | null } }> {
  return new Promise((resolve, reject) => {
    const s = connect(path);
    let buf = '';
    s.on('connect', () => s.write(`${JSON.stringify(req)}\n`));
    s.on('data', (d) => (buf += d.toString()));
    s.on('end', () => resolve(JSON.parse(buf)));
    s.on('error', reject);
  });
}

/** A client for a pane: connects, claims `pid` (its own when "self"), prints the answer. */
const CLAIM = `const s=require('net').connect(process.argv[1]);const r=JSON.parse(process.argv[2]);if(r.pid==='self')r.pid=process.pid;let b='';s.on('connect',()=>s.write(JSON.stringify(r)+'\\n'));s.on('data',d=>b+=d);s.on('end',()=>process.stdout.write(b));`;

/** A process of another user: as root, one started as nobody; else any process /proc shows for another uid. */
async function otherUsersPid(): Promise<{ pid: number; stop(): void }> {
  if (process.getuid?.() === 0) {
    const child = spawn('sleep', ['120'], { uid: 65534, gid: 65534, stdio: 'ignore' });
    await new Promise((r) => child.once('spawn', r));
    return { pid: child.pid!, stop: () => child.kill() };
  }
  for (const d of await readdir('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const st = await stat(join('/proc', d)).catch(() => null);
    if (st && st.uid !== process.getuid?.()) return { pid: Number(d), stop: () => undefined };
  }
  throw new Error('no process of another user on this machine');
}

describe('the walky socket proves the calling process by the connection itself', () => {
  it('refuses a pane that claims another pane, pid 1, another user and a non-number; takes an honest caller', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-walky-peer');
    const env = walkyEnv(state.path);
    const a = await fakePane(tmux, state.path, 'alpha', 'fresh-idle', env);
    const b = await fakePane(tmux, state.path, 'beta', 'fresh-idle', env);
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path));
    const A = await paneOf(bridge, a.paneId, idle);
    const B = await paneOf(bridge, b.paneId, idle);
    const sock = join(state.path, 'walky', 'sock');
    const fromA = async (req: Record<string, unknown>) => {
      const r = await a.run([process.execPath, '-e', CLAIM, sock, JSON.stringify({ v: 1, ...req })]);
      expect(r.code, r.err).toBe(0);
      return JSON.parse(r.out) as { ok: boolean; you?: string | null; error?: { code: string; message: string }; message?: { state: string; reason: string | null; from: { address?: string } } };
    };

    // Honest: the process that opened the connection names itself, and is traced to pane A.
    expect(await fromA({ verb: 'who', pid: 'self' })).toMatchObject({ ok: true, you: A.address });

    // Pane A's process claims pane B's agent: refused, nothing sent, with the reason.
    const forged = await fromA({ verb: 'send', pid: B.pid, to: A.address, body: 'posing as B' });
    expect(forged).toEqual({ ok: false, verb: 'error', error: { code: 'not_proved', message: `walky: process ${B.pid} did not open this connection; the caller names its own pid, and the bridge proves its pane from it` } });
    expect(await fromA({ verb: 'who', pid: B.pid })).toMatchObject({ ok: false, error: { code: 'not_proved' } });
    // Its own pane's agent (an ancestor, which does not hold the connection) is no proof either.
    expect(await fromA({ verb: 'inbox', pid: A.pid, all: true })).toMatchObject({ ok: false, error: { code: 'not_proved' } });
    expect(await readFile(join(state.path, 'walky', 'log.jsonl'), 'utf8').catch(() => '')).not.toContain('posing as B');

    // From outside every pane (this test's process): claiming pane B is refused the same way.
    expect(await rawCall(sock, { v: 1, verb: 'send', pid: B.pid, to: A.address, body: 'x' })).toMatchObject({ ok: false, error: { code: 'not_proved' } });
    // Honest but outside a pane: proved, and refused as the page says.
    const outside = await rawCall(sock, { v: 1, verb: 'send', pid: process.pid, to: A.address, body: 'x' });
    expect(outside).toMatchObject({ ok: true, message: { state: 'refused', reason: 'run this inside a pane, or send from the phone' } });

    // Hostile claims: pid 1, another user's process, a pid that does not exist, not a number.
    expect(await rawCall(sock, { v: 1, verb: 'who', pid: 1 })).toMatchObject({ ok: false, error: { code: 'not_proved', message: expect.stringMatching(/^walky: process 1 (did not open this connection|is not yours)/) } });
    const other = await otherUsersPid();
    try {
      expect(await rawCall(sock, { v: 1, verb: 'who', pid: other.pid })).toEqual({ ok: false, verb: 'error', error: { code: 'not_proved', message: `walky: process ${other.pid} is not yours` } });
    } finally {
      other.stop();
    }
    expect(await rawCall(sock, { v: 1, verb: 'who', pid: 4_194_000 })).toEqual({ ok: false, verb: 'error', error: { code: 'not_proved', message: 'walky: no process 4194000 on this machine' } });
    for (const pid of ['1234', 1.5, -1, 0, null, 1e12]) {
      expect(await rawCall(sock, { v: 1, verb: 'who', pid }), String(pid)).toMatchObject({ ok: false, error: { code: 'bad_request', message: expect.stringMatching(/^walky: bad request: pid: /) } });
    }

    // Counted without body or sender; the CLI in pane B still works.
    const counts = JSON.parse(await readFile(join(state.path, 'walky', 'refusals.json'), 'utf8')) as { reasons: Record<string, { count: number }> };
    expect(counts.reasons['caller not proved']?.count).toBe(7);
    const ok = await b.collie(['walky', 'send', A.address, 'from B, honestly']);
    expect(ok.code, ok.out + ok.err).toBe(0);
  }, 120_000);
});
