import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '@collie/testkit';

const run = promisify(execFile);
const cli = join(repoRoot, 'packages/cli/dist/collie.mjs');

async function collie(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { env: { ...process.env, COLLIE_NO_SYSTEMD: '1', PATH: '/usr/bin:/bin', ...env }, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('collie pair, token, devices and doctor without a running bridge', () => {
  it('work on the state dir directly; doctor counts devices and warns when a host is allowed but none is paired', async () => {
    await using dir = await tempDir('collie-devices-cli-');
    const env = { COLLIE_STATE_DIR: join(dir.path, 'state'), COLLIE_CONFIG_DIR: join(dir.path, 'config'), COLLIE_PORT: '8799' };
    const warned = await collie(['doctor'], { ...env, COLLIE_ALLOWED_HOSTS: 'box.tail1234.ts.net' });
    expect(warned.stdout).toMatch(/^WARN\s+devices\s+none paired, but COLLIE_ALLOWED_HOSTS names box\.tail1234\.ts\.net/m);

    const pair = await collie(['pair'], env);
    expect(pair.code, pair.stderr).toBe(0);
    expect(pair.stdout).toMatch(/open http:\/\/127\.0\.0\.1:8799\/#\/pair\/cp1_[A-Za-z0-9_-]{43}/);
    expect(pair.stdout).toContain('tailscale serve --bg 8799');
    expect(pair.stdout).toMatch(/type the code [2-9A-Z]{4}-[2-9A-Z]{4}/);
    const withUrl = await collie(['pair', '--url'], { ...env, COLLIE_PUBLIC_URL: 'https://proxy.example' });
    expect(withUrl.stdout.trim()).toMatch(/^https:\/\/proxy\.example\/#\/pair\/cp1_[A-Za-z0-9_-]{43}$/);

    const token = await collie(['token', '--name', 'ci'], env);
    expect(token.code, token.stderr).toBe(0);
    expect(token.stdout.trim()).toMatch(/^cd1_[A-Za-z0-9_-]{43}$/);
    expect(token.stderr).toContain('the bridge will accept it when it starts');
    expect((await collie(['token', '--name', ' '], env)).stderr).toContain('a device name is 1 to 40 characters');

    const list = await collie(['devices', 'list'], env);
    expect(list.stdout).toMatch(/^NAME\s+KIND\s+RIGHT\s+PAIRED \(UTC\)\s+LAST SEEN$/m);
    expect(list.stdout).toMatch(/^ci\s+token\s/m);
    const doctor = await collie(['doctor'], { ...env, COLLIE_ALLOWED_HOSTS: 'box.tail1234.ts.net' });
    expect(doctor.stdout).toMatch(/^ok\s+devices\s+1 paired/m);

    expect((await collie(['devices', 'revoke', 'nobody'], env)).stderr).toContain("no paired device is called 'nobody'");
    expect((await collie(['devices', 'revoke', 'ci'], env)).stdout).toContain("Revoked 'ci'.");
    expect((await collie(['devices', 'list'], env)).stdout).toContain('No paired devices.');
  });
});
