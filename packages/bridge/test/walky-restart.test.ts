import type { ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WalkyAnswer } from '@collie/protocol';
import { plainReply, startClaude, startMessagesApi, startTmux, tempDir } from '@collie/testkit';
import { fakePane, type FakePane } from './walky/fake-pane';
import { CLI, runCli, walkyEnv } from './walky/kit';
import { bridgeProcess } from './bridge-process';

const serve = async (env: NodeJS.ProcessEnv): Promise<ChildProcess> => (await bridgeProcess(env, CLI)).child;

const killed = (c: ChildProcess) => new Promise((r) => (c.kill('SIGKILL'), c.once('exit', r)));

/** A send with an id of the test's choosing, from inside the pane (as a retrying client would). */
const SEND = `const s=require('net').connect(process.argv[1]);let b='';s.on('connect',()=>s.write(JSON.stringify({v:1,verb:'send',pid:process.pid,to:process.argv[2],body:process.argv[3],id:process.argv[4]})+'\\n'));s.on('data',d=>b+=d);s.on('end',()=>process.stdout.write(b));`;

async function sendWithId(s: FakePane, sock: string, to: string, body: string, id: string) {
  const r = await s.run([process.execPath, '-e', SEND, sock, to, body, id]);
  const a = WalkyAnswer.parse(JSON.parse(r.out));
  if (a.verb !== 'send') throw new Error(r.out);
  return a.message;
}

async function whoTarget(env: Record<string, string>, paneId: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const r = await runCli(['walky', 'who', '--json'], env);
    const a = r.code === 0 ? WalkyAnswer.parse(JSON.parse(r.out)) : null;
    const row = a?.verb === 'who' ? a.panes.find((p) => p.address.includes(`:${paneId}#`) && (p.state === 'idle' || p.state === 'done')) : undefined;
    if (row) return row.address;
    if (Date.now() > deadline) throw new Error(`no idle row for ${paneId}: ${r.out}${r.err}`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

describe('walky across a kill -9 of the bridge', () => {
  it('types one id once, keeps tokens inside 30 s and loses them after', async () => {
    await using tmux = await startTmux();
    await using api = await startMessagesApi();
    await using state = await tempDir('collie-walky-restart');
    const env = walkyEnv(state.path);
    const procEnv = { ...process.env, TMUX_TMPDIR: tmux.tmpDir, ...env };
    const s = await fakePane(tmux, state.path, 'sender', 'fresh-idle', env);
    await using claude = await startClaude(tmux, api, { session: 'target' });
    api.setFallback(plainReply('Got it.'));
    const sock = join(state.path, 'walky', 'sock');
    const id = 'wt_restart0000a';

    let bridge = await serve(procEnv);
    const address = await whoTarget(env, claude.paneId);
    const first = await sendWithId(s, sock, address, 'type me once', id);
    expect(first.state).toBe('delivered');
    expect((await sendWithId(s, sock, address, 'type me once', id)).state).toBe('delivered');
    await api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes(id));
    await killed(bridge);

    bridge = await serve(procEnv);
    // Inside 30 s the pane keeps its token, so the old address still reaches it.
    expect(await whoTarget(env, claude.paneId)).toBe(address);
    const again = await sendWithId(s, sock, address, 'type me once', id);
    expect(again).toMatchObject({ id, state: 'delivered' });
    await claude.waitForScreen((sc) => sc.includes('Got it.'));
    expect(api.requests.filter((r) => r.kind === 'main' && r.prompt.includes(id))).toHaveLength(1);
    await killed(bridge);

    // Stopped for longer than 30 s (the file's clock moved back instead of waiting): new tokens.
    const file = join(state.path, 'walky', 'instances.json');
    const saved = JSON.parse(await readFile(file, 'utf8')) as { savedAt: number };
    await writeFile(file, JSON.stringify({ ...saved, savedAt: saved.savedAt - 31_000 }));
    bridge = await serve(procEnv);
    try {
      const fresh = await whoTarget(env, claude.paneId);
      expect(fresh).not.toBe(address);
      const old = await s.collie(['walky', 'send', address, 'to the old token']);
      expect(old.code).toBe(4);
      expect(old.out.trim().split('\n')[2]).toBe('not sent: pane replaced');
    } finally {
      await killed(bridge);
    }
  }, 180_000);
});
