import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot, type TmuxServer } from '@collie/testkit';
import { CLI } from './kit';

const fakeClaude = join(repoRoot, 'packages/testkit/fake-agent/claude');

/** What a command run in the pane printed, its exit code, and `ms` from its spawn to its exit (the fake agent's clock). */
export interface Ran {
  code: number;
  out: string;
  err: string;
  ms: number;
}

export interface FakePane {
  paneId: string;
  /** Draw a captured Claude screen (`fresh-idle`, `working`, `permission-edit`, …). */
  draw(screen: string): Promise<void>;
  /** Run the CLI as a child of the agent, as its Bash tool would. */
  collie(args: string[], opts?: { stdin?: string; env?: Record<string, string> }): Promise<Ran>;
  /** Run any program as a child of the agent. */
  run(argv: string[], opts?: { stdin?: string }): Promise<Ran>;
}

/**
 * A stand-in Claude pane (the testkit's fake agent drawing real captured screens) whose
 * commands run as the agent's children: the bridge has to trace them back to this pane.
 * `prelude`, a shell snippet, runs first in the pane's own process (a `cd`, say).
 */
export async function fakePane(tmux: TmuxServer, dir: string, session: string, screen = 'fresh-idle', env: Record<string, string> = {}, prelude?: string): Promise<FakePane> {
  const fifo = join(dir, `fifo-${randomBytes(4).toString('hex')}`);
  execFileSync('mkfifo', [fifo]);
  const exists = await tmux.tmux('has-session', '-t', `=${session}`).then(() => true, () => false);
  const agent = [process.execPath, fakeClaude, screen];
  // A prelude runs in `sh` first (its `$$` is the pane's pid), which then becomes the agent.
  const cmd = prelude === undefined ? agent : ['sh', '-c', `${prelude}\nexec "$@"`, 'sh', ...agent];
  const opts = { cmd, env: { COLLIE_FAKE_FIFO: fifo, ...env } };
  const paneId = exists ? await tmux.newWindow(session, opts) : await tmux.newSession(session, opts);
  const write = (line: string) => writeFile(fifo, `${line}\n`);
  const run = async (argv: string[], o: { stdin?: string } = {}) => {
    const out = join(dir, `run-${randomBytes(6).toString('hex')}.json`);
    await write(`run ${Buffer.from(JSON.stringify({ argv, out, stdin: o.stdin ?? '' })).toString('base64')}`);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const text = await readFile(out, 'utf8').catch(() => null);
      if (text !== null) {
        await rm(out, { force: true });
        return JSON.parse(text) as Ran;
      }
      if (Date.now() > deadline) throw new Error(`no result from ${argv.join(' ')} in the fake pane`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return {
    paneId,
    draw: (name) => write(name),
    run,
    collie: (args, o = {}) => run(['env', ...Object.entries(o.env ?? {}).map(([k, v]) => `${k}=${v}`), process.execPath, CLI, ...args], o),
  };
}
