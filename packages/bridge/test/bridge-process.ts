import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Snapshot } from '@collie/protocol';
import { repoRoot } from '@collie/testkit';

/** The built bridge as its own process (`collie serve` of `cli`), so the test can `kill -9` it. */
export async function bridgeProcess(env: NodeJS.ProcessEnv, cli = join(repoRoot, 'packages/cli/dist/collie.mjs')): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--no-qr'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    // Read, so a bridge that writes much to stderr never blocks on a full pipe.
    child.stderr!.on('data', () => undefined);
    child.once('exit', (code) => reject(new Error(`bridge exited (${code}): ${out}`)));
  });
  return { url, child };
}


/** Polls the bridge at `url` (as the device of `headers`) until the Claude pane `tmuxId` is idle with no draft: its id. */
export async function claudePaneReady(url: string, headers: Record<string, string>, tmuxId: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const snap = Snapshot.parse(await (await fetch(`${url}/api/snapshot`, { headers })).json());
    const p = snap.panes.find((x) => x.tmuxId === tmuxId && x.harness === 'claude' && (x.state === 'idle' || x.state === 'done') && x.draft === null);
    if (p) return p.id;
    if (Date.now() > deadline) throw new Error(`pane ${tmuxId} never idle: ${JSON.stringify(snap.panes)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
