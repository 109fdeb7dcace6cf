import { execFile, spawn } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SourcesFile } from '@collie/protocol';
import { acpScriptAgent, repoRoot, tempDir } from '@collie/testkit';
import { agentIn, durableBridge } from '../../bridge/test/durable-kit';
import { inConv, replyText, tap } from './acp-kit';

const run = promisify(execFile);
const cli = join(repoRoot, 'packages/cli/dist/collie.mjs');

/** `collie durable acp` as a person runs it: the built CLI, a real ACP agent, a real bridge. */
describe('collie durable acp', () => {
  it('lists itself in sources.json while it runs, and collie durable remove stops it', async () => {
    await using dir = await tempDir('collie-acp-cli-');
    const config = join(dir.path, 'config');
    const env = { ...process.env, COLLIE_NO_SYSTEMD: '1', COLLIE_CONFIG_DIR: config, COLLIE_STATE_DIR: join(dir.path, 'state') };
    const agent = acpScriptAgent(dir.path);
    const child = spawn(process.execPath, [cli, 'durable', 'acp', '--name', 'scripted', '--cwd', dir.path, '--', agent.command, ...agent.args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number>((r) => child.once('exit', (c) => r(c ?? -1)));
    try {
      await using bridge = await durableBridge(dir.path, config);
      const row = await agentIn(bridge.hub, 'scripted', 'ready', 20_000).catch((e: Error) => { throw new Error(`${e.message}; stderr: ${stderr}; hub: ${JSON.stringify([...bridge.hub.durable.agents.values()])}`); });
      expect(row.runtime).toBe('acp');
      const file = join(config, 'sources.json');
      expect(SourcesFile.parse(JSON.parse(await readFile(file, 'utf8'))).agents).toEqual([{ name: 'scripted', socket: join(dir.path, 'state', 'durable', 'scripted.sock') }]);
      expect((await stat(join(dir.path, 'state', 'durable', 'scripted.sock'))).mode & 0o777).toBe(0o600);
      expect(stderr).toContain('serving script-agent as the durable agent scripted');
      // A second one under the same name is refused, clearly.
      const again = await run(process.execPath, [cli, 'durable', 'acp', '--name', 'scripted', '--', agent.command, ...agent.args], { env, timeout: 30_000 }).catch((e: { code: number; stderr: string }) => e);
      expect(again).toMatchObject({ code: 1, stderr: 'collie: a durable agent named scripted is already running on ' + join(dir.path, 'state', 'durable', 'scripted.sock') + '\n' });
      await run(process.execPath, [cli, 'durable', 'remove', 'scripted'], { env });
      expect(await exited).toBe(0);
      expect(stderr).toContain('scripted was removed from sources.json: stopping');
      // The agent's own stderr (the script agent logs every step there) stays out of the person's output.
      expect(stderr).not.toContain('script-agent:');
      expect(stdout).toBe('');
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('with --serve, an agent that dies is started again and the phone says so; collie durable remove stops it and its agent', async () => {
    await using dir = await tempDir('collie-acp-cli-');
    const config = join(dir.path, 'config');
    const env = { ...process.env, COLLIE_NO_SYSTEMD: '1', COLLIE_CONFIG_DIR: config, COLLIE_STATE_DIR: join(dir.path, 'state') };
    const agent = acpScriptAgent(dir.path);
    const child = spawn(process.execPath, [cli, 'durable', 'acp', '--serve', '--name', 'kept', '--cwd', dir.path, '--', agent.command, ...agent.args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number>((r) => child.once('exit', (c) => r(c ?? -1)));
    try {
      await using bridge = await durableBridge(dir.path, config);
      await agentIn(bridge.hub, 'kept', 'ready', 20_000);
      const s = { bridge, name: 'kept' };
      const id = (await tap.start(s, 'st-1')).conversationId!;
      await tap.say(s, id, 'crash', 'say-1');
      await inConv(s, id, 'the restart said', (c, x) => c?.working === false && x.some((i) => i.kind === 'notice' && i.text === 'the ACP agent exited with code 3. Restarting it in 1 s.'));
      await inConv(s, id, 'running again', (_c, x) => x.some((i) => i.kind === 'notice' && i.text === 'The ACP agent is running again.'));
      await tap.say(s, id, 'hello', 'say-2');
      await inConv(s, id, 'a reply from the new agent process', (c, x) => c?.working === false && replyText(x).includes('Hello from the script agent.'));
      // Back-off: dying again within a minute of the restart, it waits twice as long.
      await tap.say(s, id, 'crash', 'say-3');
      await inConv(s, id, 'the longer wait said', (_c, x) => x.some((i) => i.kind === 'notice' && i.text === 'the ACP agent exited with code 3. Restarting it in 2 s.'));
      await inConv(s, id, 'running again, twice', (_c, x) => x.filter((i) => i.kind === 'notice' && i.text === 'The ACP agent is running again.').length === 2);
      await expect.poll(() => stderr.match(/restarted \(pid \d+\)/gu)?.length ?? 0, { timeout: 10_000 }).toBe(2);
      const pid = Number([...stderr.matchAll(/restarted \(pid (\d+)\)/gu)].at(-1)?.[1]);
      expect(pid).toBeGreaterThan(0);
      expect(alive(pid)).toBe(true);
      await run(process.execPath, [cli, 'durable', 'remove', 'kept'], { env });
      expect(await exited).toBe(0);
      expect(stderr).toContain('kept was removed from sources.json: stopping');
      await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);
      await inConv(s, id, 'the agent gone from the phone', () => !bridge.hub.durable.agents.has('kept') || undefined);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('says what is wrong with its command line', async () => {
    await using dir = await tempDir('collie-acp-cli-');
    const env = { ...process.env, COLLIE_NO_SYSTEMD: '1', COLLIE_CONFIG_DIR: join(dir.path, 'config'), COLLIE_STATE_DIR: join(dir.path, 'state') };
    const fail = (args: string[]) => run(process.execPath, [cli, 'durable', 'acp', ...args], { env }).then(() => ({ code: 0, stderr: '' }), (e: { code: number; stderr: string }) => e);
    expect(await fail(['--cwd', join(dir.path, 'nowhere'), '--', 'true'])).toMatchObject({ code: 1, stderr: `collie: --cwd ${join(dir.path, 'nowhere')}: not a folder\n` });
    expect(await fail(['--name', 'bad name!', '--', 'true'])).toMatchObject({ code: 1, stderr: expect.stringContaining("'bad name!': a name is 1 to 40 letters") });
    expect(await fail(['--', join(dir.path, 'no-such-agent')])).toMatchObject({ code: 1, stderr: expect.stringContaining('could not start') });
    expect((await fail([])).stderr).toContain("missing required argument 'command'");
    // A name another durable agent has: refused before anything starts.
    await run(process.execPath, [cli, 'durable', 'add', 'taken', join(dir.path, 'other.sock')], { env });
    expect(await fail(['--name', 'taken', '--', 'true'])).toMatchObject({ code: 1, stderr: 'collie: a durable agent named taken is already attached; remove it first\n' });
  });
});

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
