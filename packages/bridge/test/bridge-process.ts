import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '@collie/testkit';

/** The built bridge as its own process, so the test can `kill -9` it. */
export async function bridgeProcess(env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
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

