import { mkdir, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { serve } from '@collie/durable-sdk';
import { AcpAgent, type AcpAgentOptions } from './acp-agent';
import { startLink, type AgentCommand, type Link } from './link';

/** Where the durable agents of this machine are listed: sources.json, through the bridge's own code. */
export interface Registry {
  /** The folder for the agent's socket (0700). */
  readonly socketDir: string;
  /** Lists `name` at `socket`, or throws why not (a name taken by another agent). */
  add(name: string, socket: string): Promise<void>;
  /** Removes `name` when it still names `socket`. */
  remove(name: string, socket: string): Promise<void>;
  /** Calls `gone` once sources.json no longer lists `name` at `socket` (`collie durable remove`). */
  watch(name: string, socket: string, gone: () => void): () => void;
}

export interface RunOptions extends Omit<AcpAgentOptions, 'cwd'> {
  agent: AgentCommand;
  /** Keep running: restart the agent with back-off when it dies. Else end when it ends. */
  serve: boolean;
  /** Back-off of restarts: the first wait, doubled each time up to `max`; reset after `healthyMs` up. */
  backoff?: { first: number; max: number; healthyMs: number };
  /** Lines for the person at the terminal. */
  log?: (line: string) => void;
}

export interface Running {
  readonly acp: AcpAgent;
  readonly socket: string;
  /** The current agent process, for tests and the log. */
  pid(): number | undefined;
  /** Resolves with the exit code when it stopped: removed, interrupted, or (without --serve) the agent ended. */
  readonly done: Promise<number>;
  stop(): Promise<number>;
}

/**
 * `collie durable acp`: the agent process behind a durable agent on a socket, listed in
 * sources.json while it runs. The socket and the list entry outlive restarts of the agent.
 */
export async function runAcp(o: RunOptions, registry: Registry): Promise<Running> {
  const log = o.log ?? (() => undefined);
  const backoff = o.backoff ?? { first: 1_000, max: 60_000, healthyMs: 60_000 };
  await mkdir(registry.socketDir, { recursive: true, mode: 0o700 });
  const socket = join(registry.socketDir, `${o.name}.sock`);
  if (await answers(socket)) throw new Error(`collie: a durable agent named ${o.name} is already running on ${socket}`);
  // The request ids outlive this process: a retry after a restart of the bridge runs nothing twice.
  const acp = new AcpAgent({ requestLog: join(registry.socketDir, `${o.name}.requests`), ...o, cwd: o.agent.cwd });
  let link: Link | null = null;
  try {
    // Listed before it listens: a name taken by another agent is refused before its socket is touched.
    await registry.add(o.name, socket);
    link = await startLink(o.agent, acp);
  } catch (err) {
    link?.close();
    await registry.remove(o.name, socket).catch(() => undefined);
    acp.close();
    throw err;
  }
  acp.attach(link);
  const listening = await serve(acp.durable, { socket });
  log(`serving ${link.init.agentInfo?.name ?? o.agent.command} as the durable agent ${o.name} on ${socket}`);

  let stopping = false;
  let finish!: (code: number) => void;
  const done = new Promise<number>((r) => (finish = r));
  let wake: (() => void) | null = null;
  const stop = async (code: number): Promise<number> => {
    if (stopping) return done;
    stopping = true;
    unwatch();
    wake?.();
    link?.close();
    acp.close();
    await listening.close();
    await registry.remove(o.name, socket).catch(() => undefined);
    await rm(socket, { force: true });
    finish(code);
    return code;
  };
  const unwatch = registry.watch(o.name, socket, () => {
    log(`${o.name} was removed from sources.json: stopping`);
    void stop(0);
  });

  // The supervisor: wait for the agent to end; without --serve that is the end, else restart it.
  void (async () => {
    let wait = backoff.first;
    while (!stopping && link) {
      const up = Date.now();
      const why = await link.ended;
      if (stopping) return;
      if (Date.now() - up >= backoff.healthyMs) wait = backoff.first;
      const tail = link.stderrTail();
      link = null;
      if (!o.serve) {
        acp.detach(why, 'It is not restarted (run it with --serve to keep it up).');
        log(`${why}${tail ? ` (${tail})` : ''}`);
        return void stop(1);
      }
      acp.detach(why, `Restarting it in ${Math.max(1, Math.round(wait / 1000))} s.`);
      log(`${why}; restarting in ${wait} ms`);
      let failed = '';
      while (!stopping && !link) {
        await new Promise<void>((r) => {
          const t = setTimeout(r, wait);
          wake = () => (clearTimeout(t), r());
        });
        wake = null;
        if (stopping) return;
        wait = Math.min(wait * 2, backoff.max);
        try {
          link = await startLink(o.agent, acp);
          acp.attach(link);
          acp.announce('The ACP agent is running again.');
          log(`restarted (pid ${link.pid ?? '?'})`);
        } catch (err) {
          const why = err instanceof Error ? err.message : String(err);
          log(`restart failed: ${why}; next try in ${wait} ms`);
          // The phone says so too (once for each new why, not at every try): a conversation is not
          // left reading "Restarting it in 1 s." for good.
          if (why !== failed) acp.announce(`The ACP agent could not be started again: ${why.replace(/[.\s]+$/u, '')}. Trying again in ${Math.max(1, Math.round(wait / 1000))} s, then less often.`.slice(0, 2_000));
          failed = why;
        }
      }
    }
  })();

  return { acp, socket, pid: () => link?.pid, done, stop: () => stop(0) };
}

/** Whether something already listens on the socket (another run under the same name). */
function answers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect(socket);
    c.once('connect', () => (c.destroy(), resolve(true)));
    c.once('error', () => resolve(false));
  });
}
