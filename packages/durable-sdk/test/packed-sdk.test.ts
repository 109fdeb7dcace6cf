import { execFile, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '@collie/testkit';
import { agentIn, durableBridge, writeSources } from '../../bridge/test/durable-kit';

const run = promisify(execFile);

/**
 * The durable SDK as an agent author gets it: `npm run pack:sdk` makes its tarball, a project
 * of its own installs it alone, its types check a program written against it (node16
 * resolution, library declarations checked too), and its example agent, run from the installed
 * package, attaches to a real bridge.
 */
describe('the packed durable SDK', () => {
  it('installs alone, type-checks an agent written against it, and its example desk attaches to a bridge', async () => {
    await using work = await tempDir('collie-sdk-packed-');
    const tgz = (await run(process.execPath, [join(repoRoot, 'scripts/pack-sdk.mjs'), join(work.path, 'out')], { cwd: repoRoot, timeout: 300_000 })).stdout.trim().split('\n').at(-1)!;
    expect(tgz).toMatch(/collie-durable-sdk-\d+\.\d+\.\d+\.tgz$/);

    const app = join(work.path, 'app');
    await run('mkdir', ['-p', app]);
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'my-agent', private: true, type: 'module' }));
    const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tgz], { cwd: app, timeout: 300_000 });
    expect(installed.stderr).not.toMatch(/npm warn/i);

    await writeFile(
      join(app, 'agent.ts'),
      `import { DurableAgent, serve, type ClosedConversation, type Listening } from '@collie/durable-sdk';
const agent = new DurableAgent({ runtime: 'mine', onMessage: (c, text: string) => { c.reply(\`heard \${text}\`); } });
const closed: ClosedConversation[] = [];
const on: Listening = await serve(agent, { socket: '/tmp/mine.sock' });
export { on, closed };
`,
    );
    await writeFile(
      join(app, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2023', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, typeRoots: [join(repoRoot, 'node_modules/@types')], types: ['node'] }, files: ['agent.ts'] }),
    );
    const tsc = await run(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', app], { cwd: app }).catch((e: { stdout: string }) => ({ stdout: e.stdout, failed: true }));
    expect(tsc, tsc.stdout).not.toHaveProperty('failed');

    // The example, from the installed package, on a socket; a bridge that lists it sees it ready.
    const socket = join(work.path, 'desk.sock');
    const desk = spawn(process.execPath, [join(app, 'node_modules/@collie/durable-sdk/dist/desk.mjs'), socket], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        desk.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('desk listening on')) resolve();
        });
        desk.stderr.on('data', (d: Buffer) => (out += d.toString()));
        desk.once('exit', (code) => reject(new Error(`desk exited (${code}): ${out}`)));
      });
      const config = join(work.path, 'config');
      await writeSources(config, [{ name: 'desk', socket }]);
      await using bridge = await durableBridge(join(work.path, 'state'), config);
      const row = await agentIn(bridge.hub, 'desk', 'ready');
      expect(row.runtime).toBe('desk');
    } finally {
      desk.kill('SIGKILL');
    }
  }, 300_000);
});
