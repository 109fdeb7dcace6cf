import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot, serveWork, untilServing } from '@collie/testkit';

const run = promisify(execFile);
const cli = join(repoRoot, 'packages/cli/dist/collie.mjs');
const LINK = /cp1_[A-Za-z0-9_-]{43}/;

/** `collie serve` as its own process, in a terminal (`script`), where it prints a pairing offer; resolves once it did. */
async function serve(env: NodeJS.ProcessEnv, args: string[] = []): Promise<{ child: ChildProcess; out: () => string; url: string; killed: () => Promise<void> }> {
  const command = [process.execPath, cli, 'serve', '--port', '0', ...args].join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const { url, out } = await untilServing(child, (o) => /type the code/.test(o));
  // The bridge is script's child: kill -9 it by the pid its run file names, then script.
  const pid = (JSON.parse(await readFile(join(String(env['COLLIE_STATE_DIR']), 'bridge.json'), 'utf8')) as { pid: number }).pid;
  const killed = async () => {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  return { child, out, url, killed };
}

async function collie(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return (await run(process.execPath, [cli, ...args], { env: { ...process.env, COLLIE_NO_SYSTEMD: '1', ...env }, timeout: 30_000 })).stdout;
}

/** The bridge's own QR drawing (the one serve prints), from its built commands bundle. */
async function qrOf(text: string): Promise<string> {
  const b = (await import(join(repoRoot, 'packages/bridge/dist/commands.mjs'))) as { qrCode(text: string): Promise<string> };
  return b.qrCode(text);
}

describe('collie serve in a terminal prints a pairing link; devices survive a kill -9', () => {
  it('the printed link pairs a browser once; after kill -9 and a restart paired devices stay paired and revoked stay revoked', async () => {
    await using work = await serveWork('collie-serve-pair-');
    await work.tmux.newSession('work', { cmd: 'sh' });
    const env = work.env({ COLLIE_PUBLIC_URL: '' });
    const first = await serve(env);
    try {
      // No phone address known: the local link, and one line on how to get one.
      const local = new RegExp(`Pair this machine's browser: open (${first.url.replace(/[.]/g, '\\.')}/#/pair/(cp1_[A-Za-z0-9_-]{43}))`).exec(first.out());
      expect(local, first.out()).not.toBeNull();
      expect(first.out()).toMatch(/COLLIE_PUBLIC_URL|tailscale serve --bg/);
      const token = local![2]!;
      const pair = (body: unknown) => fetch(`${first.url}/api/pair`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const paired = await pair({ token });
      expect(paired.status).toBe(200);
      const cookie = (paired.headers.get('set-cookie') ?? '').split(';')[0]!;
      expect(cookie).toMatch(/=cd1_/);
      expect((await fetch(`${first.url}/api/snapshot`, { headers: { cookie } })).status).toBe(200);

      // Two script devices made while it runs; one is revoked.
      const keep = (await collie(['token', '--name', 'keep'], env)).trim();
      const gone = (await collie(['token', '--name', 'gone'], env)).trim();
      expect(await collie(['devices', 'revoke', 'gone'], env)).toContain("Revoked 'gone'.");
      expect((await fetch(`${first.url}/api/snapshot`, { headers: { authorization: `Bearer ${gone}` } })).status).toBe(401);
      await first.killed();

      const second = await serve(env, ['--no-qr']);
      try {
        expect(second.out()).toMatch(LINK);
        expect(LINK.exec(second.out())![0]).not.toBe(token); // a fresh link each start
        expect((await fetch(`${second.url}/api/snapshot`, { headers: { cookie } })).status).toBe(200);
        expect((await fetch(`${second.url}/api/snapshot`, { headers: { authorization: `Bearer ${keep}` } })).status).toBe(200);
        const revoked = await fetch(`${second.url}/api/snapshot`, { headers: { authorization: `Bearer ${gone}` } });
        expect(revoked.status).toBe(401);
        expect(await revoked.json()).toMatchObject({ error: { code: 'device_revoked' } });
        const replay = await fetch(`${second.url}/api/pair`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
        expect(replay.status).toBe(401);
        expect(await replay.json()).toMatchObject({ error: { code: 'pairing_failed', message: expect.stringContaining('already used') } });
      } finally {
        await second.killed();
      }
    } finally {
      await first.killed();
    }
  }, 120_000);

  it('with COLLIE_PUBLIC_URL, in a terminal: the QR code carries the phone address, not loopback', async () => {
    await using work = await serveWork('collie-serve-qr-');
    const env = work.env({ COLLIE_PUBLIC_URL: 'https://box.tail1234.ts.net' });
    // `script` gives the process a terminal, where serve prints its QR code.
    const child = spawn('script', ['-qfec', `${process.execPath} ${cli} serve --port 0`, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let out = '';
    try {
      // Decoded as a stream: a block character split across two chunks stays whole.
      child.stdout!.setEncoding('utf8');
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d: string) => {
          out += d.replace(/\r/g, '');
          if (/type the code/.test(out) && /▀|▄|█/.test(out.split('type the code')[1] ?? '')) setTimeout(resolve, 200);
        });
        child.once('exit', (code) => reject(new Error(`collie serve exited (${code}): ${out}`)));
      });
      const remote = /Pair your phone: scan the QR code, or open (https:\/\/box\.tail1234\.ts\.net\/#\/pair\/cp1_[A-Za-z0-9_-]{43})/.exec(out);
      expect(remote, out).not.toBeNull();
      expect(out).toMatch(/On this machine: http:\/\/127\.0\.0\.1:\d+\/#\/pair\/cp1_/);
      const printed = out.slice(out.indexOf('type the code'));
      expect(printed).toContain((await qrOf(remote![1]!)).trim());
      // Not the loopback link's code.
      const local = /On this machine: (\S+)/.exec(out)![1]!;
      expect(printed).not.toContain((await qrOf(local)).trim());
    } finally {
      await collie(['stop'], env).catch(() => '');
      child.kill('SIGKILL');
      await exited;
    }
  }, 120_000);
});
