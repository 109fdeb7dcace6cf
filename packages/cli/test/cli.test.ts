import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, stat } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot, startTmux, tempDir } from '@collie/testkit';

const run = promisify(execFile);
const cli = join(repoRoot, 'packages/cli/dist/collie.mjs');
const fixtures = join(repoRoot, 'packages', 'testkit', 'corpus', 'panes');

/** Runs the built `collie` and returns its exit code and output, never throwing on a non-zero exit. */
async function collie(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { env: { ...process.env, COLLIE_NO_SYSTEMD: '1', ...env }, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('the collie command', () => {
  it('screen prints the reading of a saved screen as JSON, and says what is wrong with bad input', async () => {
    const ok = await collie(['screen', join(fixtures, 'claude--permission-edit.txt')]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ harness: 'claude', state: 'blocked', dialog: 'permission', draft: null });
    const draft = await collie(['screen', join(fixtures, 'claude--draft-wrapped.txt')]);
    expect(JSON.parse(draft.stdout).draft).toEqual(expect.any(String));
    const missing = await collie(['screen', '/no/such/screen.txt']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read /no/such/screen.txt');
    const bad = await collie(['screen', join(fixtures, 'claude--done.txt'), '--harness', 'bogus']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("unknown harness 'bogus'");
  });

  it('doctor prints one line per check and exits 1 when the state dir is open to others', async () => {
    await using dir = await tempDir('collie-doctor-');
    const state = join(dir.path, 'state');
    await mkdir(state);
    await chmod(state, 0o755);
    const env = { COLLIE_STATE_DIR: state, COLLIE_CONFIG_DIR: join(dir.path, 'config'), COLLIE_PORT: '0' };
    const bad = await collie(['doctor'], env);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^FAIL\s+state dir\s+.*must be 0700/m);
    for (const name of ['node', 'tmux', 'config', 'port', 'tmux servers']) expect(bad.stdout).toMatch(new RegExp(`^ok\\s+${name}`, 'm'));
    await chmod(state, 0o700);
    expect((await collie(['doctor'], env)).code).toBe(0);
    const wrongHost = await collie(['doctor'], { ...env, COLLIE_HOST: '0.0.0.0' });
    expect(wrongHost.code).toBe(1);
    expect(wrongHost.stdout).toMatch(/FAIL\s+config.*COLLIE_HOST/);
  });

  it('start, status and stop run the bridge in the background with a run file', async () => {
    await using dir = await tempDir('collie-daemon-');
    await using tmux = await startTmux();
    await tmux.newSession('work', { cmd: 'sh' });
    const env = { COLLIE_STATE_DIR: join(dir.path, 'state'), COLLIE_CONFIG_DIR: join(dir.path, 'config'), COLLIE_PORT: '0', TMUX_TMPDIR: tmux.tmpDir };
    expect((await collie(['status'], env)).code).toBe(3);
    const started = await collie(['start'], env);
    expect(started.code, started.stderr).toBe(0);
    const url = /started: (http:\/\/\S+)/.exec(started.stdout)?.[1];
    expect(url).toBeDefined();
    try {
      // The running bridge takes a device made by collie token at once; without it, 401.
      expect((await fetch(`${url}/api/snapshot`)).status).toBe(401);
      const token = await collie(['token', '--name', 'cli-test'], env);
      expect(token.code, token.stderr).toBe(0);
      const snap = (await (await fetch(`${url}/api/snapshot`, { headers: { authorization: `Bearer ${token.stdout.trim()}` } })).json()) as { panes: unknown[] };
      expect(Array.isArray(snap.panes)).toBe(true);
      const s = await collie(['status'], env);
      expect(s.code).toBe(0);
      expect(s.stdout).toContain(`running, pid`);
      const info = JSON.parse(await readFile(join(env.COLLIE_STATE_DIR, 'bridge.json'), 'utf8')) as { pid: number };
      expect(((await stat(join(env.COLLIE_STATE_DIR, 'bridge.json'))).mode & 0o777).toString(8)).toBe('600');
      expect(((await stat(env.COLLIE_STATE_DIR)).mode & 0o777).toString(8)).toBe('700');
      expect((await collie(['start'], env)).stdout).toContain(`already running, pid ${info.pid}`);
      // The bridge process starts with glibc's malloc held to two arenas (bridge-env.ts).
      expect((await readFile(`/proc/${info.pid}/environ`, 'utf8')).split('\0')).toContain('MALLOC_ARENA_MAX=2');
    } finally {
      const stopped = await collie(['stop'], env);
      expect(stopped.code).toBe(0);
    }
    expect((await collie(['status'], env)).code).toBe(3);
  });

  it('serve refuses a bad --port and a taken port with a reason, and exits 1', async () => {
    const bad = await collie(['serve', '--port', 'eighty']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('a port is a whole number from 0 to 65535');
    await using dir = await tempDir('collie-serve-');
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as AddressInfo).port;
    try {
      const busy = await collie(['serve', '--port', String(port), '--no-qr'], { COLLIE_STATE_DIR: join(dir.path, 'state'), COLLIE_CONFIG_DIR: join(dir.path, 'config') });
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain(`127.0.0.1:${port} is taken`);
    } finally {
      taken.close();
    }
  });
});
