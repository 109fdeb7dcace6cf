import { execFile, spawn } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SourcesFile } from '@collie/protocol';
import { repoRoot, tempDir } from '@collie/testkit';

const run = promisify(execFile);
const cli = join(repoRoot, 'packages/cli/dist/collie.mjs');

async function collie(args: string[], env: NodeJS.ProcessEnv, stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  if (stdin !== undefined) {
    const child = spawn(process.execPath, [cli, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(stdin);
    const code = await new Promise<number>((r) => child.once('exit', (c) => r(c ?? 1)));
    return { code, stdout, stderr };
  }
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { env: { ...process.env, ...env }, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('collie durable add | list | remove', () => {
  it('edits sources.json (0600) with clear errors', async () => {
    await using dir = await tempDir('collie-durable-cli-');
    const env = { COLLIE_NO_SYSTEMD: '1', COLLIE_CONFIG_DIR: join(dir.path, 'config'), COLLIE_STATE_DIR: join(dir.path, 'state') };
    expect((await collie(['durable', 'list'], env)).stdout).toContain('no durable agents');
    const added = await collie(['durable', 'add', 'desk', join(dir.path, 'desk.sock')], env);
    expect(added).toMatchObject({ code: 0, stdout: `attached desk (local): ${join(dir.path, 'desk.sock')}\n` });
    expect(await collie(['durable', 'add', 'desk', '/tmp/other.sock'], env)).toMatchObject({ code: 1, stderr: 'collie: a durable agent named desk is already attached; remove it first\n' });
    expect((await collie(['durable', 'add', 'far', 'https://agents.example.net'], env)).stderr).toBe('collie: far: a remote durable agent needs a token (give it with --token-stdin)\n');
    expect((await collie(['durable', 'add', 'plain', 'http://agents.example.net'], env)).stderr).toBe(
      'collie: plain: plain http:// is only for 127.0.0.1 or localhost; a remote durable agent needs https://\n',
    );
    expect((await collie(['durable', 'add', 'bad name!', '/tmp/x.sock'], env)).code).toBe(1);
    expect(await collie(['durable', 'add', 'far', 'https://agents.example.net', '--token-stdin'], env, 'secret-token\n')).toMatchObject({ code: 0, stdout: 'attached far (remote): https://agents.example.net\n' });
    expect(await collie(['durable', 'add', 'loop', 'http://127.0.0.1:7070'], env)).toMatchObject({ code: 0 });

    const file = join(dir.path, 'config', 'sources.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(SourcesFile.parse(JSON.parse(await readFile(file, 'utf8'))).agents).toEqual([
      { name: 'desk', socket: join(dir.path, 'desk.sock') },
      { name: 'far', url: 'https://agents.example.net', token: 'secret-token' },
      { name: 'loop', url: 'http://127.0.0.1:7070' },
    ]);
    const list = await collie(['durable', 'list'], env);
    expect(list.stdout).toContain(`desk  ${join(dir.path, 'desk.sock')}  local  bridge not running`);
    expect(list.stdout).toContain('far  https://agents.example.net  remote');
    expect(list.stdout).not.toContain('secret-token');
    expect(await collie(['durable', 'remove', 'far'], env)).toMatchObject({ code: 0, stdout: 'removed far\n' });
    expect(await collie(['durable', 'remove', 'far'], env)).toMatchObject({ code: 1, stderr: 'collie: no durable agent named far (see collie durable list)\n' });
  });
});
