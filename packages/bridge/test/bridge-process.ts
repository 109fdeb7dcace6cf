import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Snapshot } from '@collie/protocol';
import { repoRoot } from '@collie/testkit';

/**
 * The built bridge as its own process (`collie serve` of `cli`), so the test can `kill -9` it.
 * `inside` makes the command line run somewhere else (a small disk's namespace: testkit smallDisk).
 */
export async function bridgeProcess(env: NodeJS.ProcessEnv, cli = join(repoRoot, 'packages/cli/dist/collie.mjs'), inside = (argv: string[]) => argv): Promise<{ url: string; child: ChildProcess; stderr(): string }> {
  const [cmd, ...args] = inside([process.execPath, cli, 'serve', '--port', '0', '--no-qr']);
  const child = spawn(cmd!, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    // Read (its tail kept), so a bridge that writes much to stderr never blocks on a full pipe.
    child.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    child.once('exit', (code) => reject(new Error(`bridge exited (${code}): ${out}${err}`)));
  });
  return { url, child, stderr: () => err };
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
