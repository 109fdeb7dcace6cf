import { execFile, spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { acpScriptAgent, launchChromium, phoneContext, repoRoot, startTmux, tempDir, untilServing } from '@collie/testkit';

const run = promisify(execFile);
const MB = 1024 * 1024;
const version = (JSON.parse(readFileSync(join(repoRoot, 'packages/cli/package.json'), 'utf8')) as { version: string }).version;

/** Bytes under `dir` (files counted once each, as `du` would, without following links). */
async function footprint(dir: string): Promise<number> {
  const { stdout } = await run('du', ['-sb', dir]);
  return Number(stdout.split('\t')[0]);
}

/** CPU time (user + system) the process `pid` has used, in ms (Linux /proc; 100 ticks a second). */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * The one package a user installs: `npm run pack` makes collie-<version>.tgz, `npm install -g`
 * puts it in a prefix of its own with no workspace beside it, and every verb works from there:
 * the bridge serves the built web app, a pairing link pairs a real Chromium, the ACP bridge
 * serves an agent, and the CLI's other verbs run.
 */
describe('the installed package', () => {
  it('packs, installs alone into a prefix, and collie serve, pair, doctor, --version and the other verbs work from it', async () => {
    await using work = await tempDir('collie-installed-');
    const packed = (await run(process.execPath, [join(repoRoot, 'scripts/pack.mjs'), join(work.path, 'out')], { cwd: repoRoot, timeout: 300_000 })).stdout.trim().split('\n').at(-1)!;
    expect(packed).toBe(join(work.path, 'out', `collie-${version}.tgz`));
    expect(statSync(packed).size).toBeLessThanOrEqual(15 * MB);

    // Offline-friendly: from the npm cache when it holds the two dependencies, else the registry.
    const prefix = join(work.path, 'prefix');
    const home = join(work.path, 'home');
    const installed = await run('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', packed], { cwd: work.path, timeout: 300_000 });
    expect(installed.stderr).not.toMatch(/npm warn/i);
    const pkgDir = join(prefix, 'lib', 'node_modules', 'collie');
    expect(await footprint(pkgDir)).toBeLessThanOrEqual(60 * MB);

    await using tmux = await startTmux();
    const shell = await tmux.newSession('work', { cmd: 'sh' });
    const env = {
      ...process.env,
      PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`,
      HOME: home,
      COLLIE_NO_SYSTEMD: '1',
      COLLIE_STATE_DIR: join(work.path, 'state'),
      COLLIE_CONFIG_DIR: join(work.path, 'config'),
      COLLIE_PUBLIC_URL: '',
      TMUX_TMPDIR: tmux.tmpDir,
    };
    const collie = async (...args: string[]) => (await run('collie', args, { env, cwd: work.path, timeout: 30_000 })).stdout;
    /** What a verb that may exit non-zero here printed (both streams). */
    const said = (...args: string[]) =>
      run('collie', args, { env, cwd: work.path, timeout: 30_000 }).then(
        (r) => r.stdout + r.stderr,
        (e: { stdout: string; stderr: string }) => e.stdout + e.stderr,
      );
    expect((await collie('--version')).trim()).toBe(version);

    const started = performance.now();
    const child = spawn('collie', ['serve', '--port', '0', '--no-qr'], { env, cwd: work.path, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      const { url } = await untilServing(child);
      const page = await fetch(`${url}/`);
      const wall = performance.now() - started;
      const cpu = await cpuMs(child.pid!);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      // The budget is 2 s from its start to its first answer (bench/install.mjs measures the wall
      // time); on a machine shared with other tests the wall time says more about the load than
      // about Collie, so this holds its own CPU time to the budget.
      expect(cpu, `collie serve used ${cpu} ms of CPU (${Math.round(wall)} ms of wall time) to its first answer`).toBeLessThanOrEqual(2_000);
      expect((await fetch(`${url}/api/snapshot`)).status).toBe(401);

      // A pairing link from `collie pair --url` pairs a real browser: the dashboard, live, the shell pane listed.
      const link = (await collie('pair', '--url')).trim();
      expect(link).toMatch(new RegExp(`^${url}/#/pair/cp1_[A-Za-z0-9_-]{43}$`));
      await using browser = await launchChromium();
      await using phone = await phoneContext(browser, { baseURL: url });
      const tab = await phone.newPage();
      tab.setDefaultTimeout(15_000);
      await tab.goto(link);
      await tab.locator('.conn-live').waitFor();
      await tab.locator('.row').first().waitFor();
      expect(tab.url()).not.toContain('cp1_');

      expect(await collie('status')).toContain('Collie bridge');
      const token = (await collie('token', '--name', 'script')).trim();
      const snapshot = await fetch(`${url}/api/snapshot`, { headers: { authorization: `Bearer ${token}` } });
      expect(snapshot.status).toBe(200);
      expect(JSON.stringify(await snapshot.json())).toContain(shell);
      expect(await collie('devices', 'list')).toContain('script');
      expect(await collie('push', 'keys')).toMatch(/[A-Za-z0-9_-]{80,}/);
      expect(await collie('skill', 'status')).toMatch(/claude|codex|pi/i);
      expect(await said('crew', 'list')).toContain('this machine is in no crew');
      // Outside an agent pane walky says so; from its own bundle, not a missing one.
      expect(await said('walky', 'who')).not.toMatch(/not built|Cannot find module/);

      // `collie durable acp`: the ACP bridge bundle serves an agent, `durable list` sees it, `durable remove` stops it.
      const agent = acpScriptAgent(work.path);
      const acp = spawn('collie', ['durable', 'acp', '--name', 'scripted', '--cwd', work.path, '--', agent.command, ...agent.args], { env, cwd: work.path, stdio: ['ignore', 'ignore', 'pipe'] });
      const acpExited = new Promise<number>((resolve) => acp.once('exit', (code) => resolve(code ?? -1)));
      try {
        await new Promise<void>((resolve, reject) => {
          let err = '';
          acp.stderr.on('data', (d: Buffer) => {
            err += d.toString();
            if (err.includes('serving script-agent as the durable agent scripted')) resolve();
          });
          acp.once('exit', (code) => reject(new Error(`collie durable acp exited (${code}): ${err}`)));
        });
        expect(await readFile(join(work.path, 'config', 'sources.json'), 'utf8')).toContain('scripted');
        expect(await collie('durable', 'list')).toContain('scripted');
        await collie('durable', 'remove', 'scripted');
        expect(await acpExited).toBe(0);
      } finally {
        acp.kill('SIGKILL');
      }
    } finally {
      child.kill('SIGKILL');
      await exited;
    }

    // doctor runs from the package (its checks printed; a check may fail on this machine).
    const doctor = await said('doctor');
    expect(doctor).toMatch(/node/i);
    expect(doctor).toMatch(/tmux/i);
  }, 600_000);
});
