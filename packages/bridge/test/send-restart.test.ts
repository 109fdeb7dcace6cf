import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReceiptBody, Snapshot } from '@collie/protocol';
import { plainReply, repoRoot, startClaude, startMessagesApi, startTmux, tempDir, testDevice } from '@collie/testkit';

/** The test's paired device: made before the first start, it must stay paired across kill -9. */
let auth: Record<string, string> = {};

/** The built bridge as its own process, so the test can `kill -9` it. */
async function bridgeProcess(env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(repoRoot, 'packages/cli/dist/collie.mjs'), 'serve', '--port', '0', '--no-qr'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`bridge exited (${code}): ${out}`)));
  });
  return { url, child };
}

async function paneReady(url: string, tmuxId: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const snap = Snapshot.parse(await (await fetch(`${url}/api/snapshot`, { headers: auth })).json());
    const p = snap.panes.find((x) => x.tmuxId === tmuxId && x.harness === 'claude' && (x.state === 'idle' || x.state === 'done') && x.draft === null);
    if (p) return p.id;
    if (Date.now() > deadline) throw new Error(`pane ${tmuxId} never idle: ${JSON.stringify(snap.panes)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function send(url: string, id: string, text: string, requestId: string) {
  const res = await fetch(`${url}/api/panes/${encodeURIComponent(id)}/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ text, request_id: requestId }) });
  return ReceiptBody.parse(await res.json()).receipt;
}

describe('one request id never types twice, across kill -9 of the bridge', () => {
  it('types once, and the same id after a restart returns the stored receipt', async () => {
    await using tmux = await startTmux();
    await using api = await startMessagesApi();
    await using state = await tempDir('collie-state');
    await using claude = await startClaude(tmux, api);
    const env = { ...process.env, TMUX_TMPDIR: tmux.tmpDir, COLLIE_STATE_DIR: state.path, COLLIE_CONFIG_DIR: join(state.path, 'config') };
    api.script(plainReply('Once.'));
    auth = (await testDevice(state.path)).headers;

    const first = await bridgeProcess(env);
    try {
      const id = await paneReady(first.url, claude.paneId);
      const r = await send(first.url, id, 'type me once', 'restart-1');
      expect(r.outcome).toBe('typed into the pane');
      await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'type me once');
      expect((await send(first.url, id, 'type me once', 'restart-1')).outcome).toBe('typed into the pane');
    } finally {
      first.child.kill('SIGKILL');
    }
    await new Promise((r) => first.child.once('exit', r));
    await claude.waitForScreen((s) => s.includes('Once.'));

    const second = await bridgeProcess(env);
    try {
      const id = await paneReady(second.url, claude.paneId);
      const again = await send(second.url, id, 'type me once', 'restart-1');
      expect(again.outcome).toBe('typed into the pane');
      expect(again.requestId).toBe('restart-1');
      await new Promise((r) => setTimeout(r, 1500));
      expect(api.requests.filter((q) => q.kind === 'main' && q.prompt === 'type me once')).toHaveLength(1);
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    }
  });
});
