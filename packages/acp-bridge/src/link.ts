import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { readText, Terminals, writeText } from './files';

/** What the agent asks of us while a link is up; the bridge answers each. */
export interface LinkHandlers {
  update(n: acp.SessionNotification): void;
  permission(req: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  elicit(req: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse>;
  /** The folder a session's files and terminals are confined to. */
  folder(sessionId: string): string;
}

export interface AgentCommand {
  command: string;
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

/** One run of the agent process and its ACP connection. */
export interface Link {
  readonly init: acp.InitializeResponse;
  readonly agent: acp.ClientContext;
  readonly pid: number | undefined;
  /** Resolves when the process or its connection ended, with why, in words. */
  readonly ended: Promise<string>;
  /** Lines the agent wrote to stderr lately (the notice quotes the last one). */
  stderrTail(): string;
  close(): void;
}

/** An agent line over 4 MiB closes the connection (the agent is then restarted): no bridge holds more. */
const MAX_MESSAGE = 4 * 1024 * 1024;

/** Runs `ms` at most, then fails with the words a notice shows. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_r, no) => {
    timer = setTimeout(() => no(new Error(`the ACP agent did not answer ${what} within ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/**
 * Spawns the agent with stdio pipes, speaks ACP to it as the client (file system and terminals
 * inside each session's folder, permission and elicitation to the handlers) and initializes.
 */
export async function startLink(cmd: AgentCommand, h: LinkHandlers, initMs = 60_000): Promise<Link> {
  const child: ChildProcess = spawn(cmd.command, cmd.args, { cwd: cmd.cwd, env: cmd.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let tail = '';
  child.stderr?.on('data', (d: Buffer) => (tail = (tail + d.toString('utf8')).slice(-2_000)));
  const exited = new Promise<string>((resolve) => {
    child.on('error', (err) => resolve(`could not start ${cmd.command}: ${err.message}`));
    child.on('exit', (code, signal) => resolve(signal ? `the ACP agent was ended by ${signal}` : `the ACP agent exited with code ${code ?? '?'}`));
  });
  // Writes to a dead agent fail; the exit says why, so they are not errors of their own.
  child.stdin?.on('error', () => undefined);
  const stream = acp.ndJsonStream(
    Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
    { maxMessageBytes: MAX_MESSAGE },
  );
  const terminals = new Terminals();
  const client = acp
    .client({ name: 'collie' })
    .onNotification(acp.methods.client.session.update, ({ params }) => h.update(params))
    .onRequest(acp.methods.client.session.requestPermission, ({ params, signal }) => h.permission(params, signal))
    .onRequest(acp.methods.client.elicitation.create, ({ params, signal }) => h.elicit(params, signal))
    .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => readText(h.folder(params.sessionId), params))
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => writeText(h.folder(params.sessionId), params))
    .onRequest(acp.methods.client.terminal.create, ({ params }) => terminals.create(h.folder(params.sessionId), params))
    .onRequest(acp.methods.client.terminal.output, ({ params }) => terminals.output(params.terminalId))
    .onRequest(acp.methods.client.terminal.waitForExit, ({ params }) => terminals.waitForExit(params.terminalId))
    .onRequest(acp.methods.client.terminal.kill, ({ params }) => terminals.kill(params.terminalId))
    .onRequest(acp.methods.client.terminal.release, ({ params }) => terminals.release(params.terminalId));
  const conn = client.connect(stream);
  // A dying process closes its stdout a moment before it exits: the exit code is the better why.
  const closed = conn.closed.then(
    () => 'the ACP connection closed',
    (e: unknown) => `the ACP connection failed: ${e instanceof Error ? e.message : String(e)}`,
  );
  const settle = closed.then((why) => Promise.race([exited, new Promise<string>((r) => setTimeout(() => r(why), 1_000).unref())]));
  const ended = Promise.race([exited, settle]).then((why) => {
    terminals.closeAll();
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    return why;
  });
  const close = () => {
    conn.close();
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  try {
    const init = await Promise.race([
      within(
        conn.agent.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true, elicitation: { form: {}, url: {} } },
          clientInfo: { name: 'collie', title: 'Collie', version: '0.1.0' },
        }),
        initMs,
        'initialize',
      ),
      ended.then((why) => Promise.reject(new Error(`${why}${tail ? `: ${lastLine(tail)}` : ''}`))),
    ]);
    return { init, agent: conn.agent, pid: child.pid, ended, stderrTail: () => lastLine(tail), close };
  } catch (err) {
    close();
    // A process that died as it started fails the request with "connection closed": its exit (and
    // the last line it wrote) says why better.
    const why = await Promise.race([ended, new Promise<null>((r) => setTimeout(() => r(null), 1_000).unref())]);
    throw why && !(err instanceof Error && err.message.startsWith(why)) ? new Error(`${why}${tail ? `: ${lastLine(tail)}` : ''}`) : err;
  }
}

const lastLine = (s: string): string => s.trim().split('\n').at(-1)?.slice(0, 300) ?? '';
