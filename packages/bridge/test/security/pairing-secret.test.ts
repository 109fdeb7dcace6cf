/**
 * A bridge that runs unattended (under systemd, `collie start`, or any stdout that is not a
 * terminal) printed a fresh full-rights pairing link and code at every start, into its log
 * file and the journal, where anyone who reads them could pair. Now it prints none, and says
 * to run `collie pair`; `collie pair` still makes one when asked.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot, serveWork, untilServing, type ServeWork } from '@collie/testkit';

const run = promisify(execFile);
const cli = join(repoRoot, 'packages/cli/dist/collie.mjs');
/** Anything of a pairing offer: its token, a link to it, or its 8-character code. */
const SECRET = /cp1_|#\/pair\/|\b[A-Z0-9]{4}-[A-Z0-9]{4}\b|type the code/;
const START_LINE = /Pair a device: run collie pair/;

/** The environment of a test bridge on `work`, without any systemd markers this process may have. */
const envOf = (work: ServeWork, extra: NodeJS.ProcessEnv = {}) => work.env({ COLLIE_PUBLIC_URL: 'https://box.tail1234.ts.net', COLLIE_PORT: '0', ...extra });

async function collie(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return (await run(process.execPath, [cli, ...args], { env, timeout: 30_000 })).stdout;
}

/** Runs `command` until its output shows the start-up line; the output then, and a way to end it. */
async function untilStarted(child: ChildProcess): Promise<{ out: string; url: string; end: () => Promise<void> }> {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const { url, out } = await untilServing(child, (o) => START_LINE.test(o));
  const end = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return { out: out(), url, end };
}

/** `collie pair --url` pairs a browser: the link's token is accepted once. */
async function pairWorks(env: NodeJS.ProcessEnv, url: string): Promise<void> {
  const link = (await collie(['pair', '--url'], env)).trim();
  const token = /#\/pair\/(cp1_[A-Za-z0-9_-]{43})$/.exec(link)?.[1];
  expect(token, link).toBeDefined();
  const paired = await fetch(`${url}/api/pair`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  expect(paired.status).toBe(200);
}

describe('no pairing secret in the logs of an unattended bridge (attack replay)', () => {
  it('collie serve with stdout not a terminal prints no link, token or code, and says to run collie pair, which works', async () => {
    await using work = await serveWork('collie-secret-');
    const env = envOf(work);
    const served = await untilStarted(spawn(process.execPath, [cli, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] }));
    try {
      expect(served.out).not.toMatch(SECRET);
      await pairWorks(env, served.url);
    } finally {
      await served.end();
    }
  }, 60_000);

  it('collie serve in a terminal under systemd (INVOCATION_ID, JOURNAL_STREAM) prints none either; in a plain terminal it still does', async () => {
    await using work = await serveWork('collie-secret-');
    // `script` gives serve a terminal, as a TTYPath= unit or a user at a shell would.
    const inTerminal = (env: NodeJS.ProcessEnv) => spawn('script', ['-qfec', `${process.execPath} ${cli} serve`, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    for (const marker of [{ INVOCATION_ID: '0123456789abcdef0123456789abcdef' }, { JOURNAL_STREAM: '8:12345' }]) {
      const env = envOf(work, marker);
      const served = await untilStarted(inTerminal(env));
      try {
        expect(served.out).not.toMatch(SECRET);
      } finally {
        await served.end();
      }
    }
    const env = envOf(work);
    const child = inTerminal(env);
    const served = await untilStarted(child);
    try {
      // The offer comes right after the start-up line.
      await new Promise<void>((resolve) => {
        let out = served.out;
        if (/type the code/.test(out)) return resolve();
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          if (/type the code/.test(out)) resolve();
        });
      });
    } finally {
      await served.end();
    }
  }, 90_000);

  it('collie start (in the background) logs no link, token or code; collie pair still works', async () => {
    await using work = await serveWork('collie-secret-');
    const env = envOf(work);
    try {
      const started = await collie(['start'], env);
      const url = /started: (http:\/\/\S+)/.exec(started)?.[1];
      expect(url, started).toBeDefined();
      const logFile = join(work.dir.path, 'state', 'bridge.log');
      // The bridge is up before it has written all its start-up lines: wait for the last of them.
      await expect.poll(() => readFile(logFile, 'utf8'), { timeout: 10_000 }).toMatch(/Pair a device|type the code/);
      const log = await readFile(logFile, 'utf8');
      expect(log).not.toMatch(SECRET);
      expect(log).toMatch(START_LINE);
      expect(started).not.toMatch(SECRET);
      await pairWorks(env, url!);
      expect(await readFile(logFile, 'utf8')).not.toMatch(SECRET);
    } finally {
      await collie(['stop'], env).catch(() => '');
    }
  }, 60_000);
});
