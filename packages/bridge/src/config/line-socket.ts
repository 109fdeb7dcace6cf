/**
 * A local socket that takes one JSON line and answers one JSON line per connection: how the
 * CLI reaches the running bridge (`devices.sock`, `crew/ask.sock`). The socket file is 0600 in
 * a 0700 dir: its mode is the check, no token is needed. A line that is not JSON, not a command
 * the schema knows, or longer than `maxLine` gets an error answer; the server keeps serving.
 */
import { chmod, rm } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import type { ZodType } from 'zod';
import { closingServer } from './closing-server';

export type LineSocketError = 'bad_request' | 'bad_json' | 'internal';

export interface LineSocketServer<C, R> {
  /** Named in every error answer and message: `devices socket`. */
  readonly name: string;
  readonly maxLine: number;
  readonly command: ZodType<C>;
  run(cmd: C): Promise<R>;
  /** The error answer, in the reply schema of this socket. */
  error(code: LineSocketError, message: string): R;
  /** Refuse to start when a live process answers on the path (else a file left by a killed bridge is removed). */
  refuseLive?: boolean;
}

/** Whether something answers on the socket path. */
function listening(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

const kib = (n: number) => `${Math.round(n / 1024)} KiB`;

export async function serveLineSocket<C, R>(path: string, o: LineSocketServer<C, R>): Promise<{ close(): Promise<void> }> {
  if (o.refuseLive && (await listening(path))) throw new Error(`collie: another bridge serves ${path}; see collie status`);
  await rm(path, { force: true });
  const answer = async (line: string): Promise<R> => {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return o.error('bad_json', `${o.name}: that line is not JSON`);
    }
    const cmd = o.command.safeParse(json);
    if (!cmd.success) return o.error('bad_request', `${o.name}: ${cmd.error.issues[0]?.message ?? 'unknown command'}`);
    try {
      return await o.run(cmd.data);
    } catch (e) {
      return o.error('internal', `${o.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const server: Server = createServer((conn) => {
    let buf = '';
    conn.setEncoding('utf8');
    conn.on('error', () => conn.destroy());
    conn.on('data', (chunk: string) => {
      buf += chunk;
      if (buf.length > o.maxLine) return void conn.end(`${JSON.stringify(o.error('bad_request', `${o.name}: line over ${kib(o.maxLine)}`))}\n`);
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      conn.pause();
      void answer(buf.slice(0, nl)).then((reply) => conn.end(`${JSON.stringify(reply)}\n`));
    });
  });
  const closing = closingServer(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  await chmod(path, 0o600);
  return {
    close: async () => {
      await closing.close();
      await rm(path, { force: true });
    },
  };
}

/** Sends `cmd` and reads the answer; null when no bridge listens on `path`. */
export function askLineSocket<R>(path: string, name: string, cmd: unknown, reply: ZodType<R>, timeoutMs: number): Promise<R | null> {
  return new Promise((resolve, reject) => {
    const s = connect(path);
    let buf = '';
    let connected = false;
    const timer = setTimeout(() => (s.destroy(), reject(new Error(`collie: the bridge did not answer on its ${name} within ${timeoutMs / 1000} s`))), timeoutMs);
    s.setEncoding('utf8');
    s.once('connect', () => {
      connected = true;
      s.write(`${JSON.stringify(cmd)}\n`);
    });
    s.on('data', (d: string) => (buf += d));
    s.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (!connected && (e.code === 'ENOENT' || e.code === 'ECONNREFUSED')) resolve(null);
      else reject(new Error(`collie: ${name}: ${e.message}`));
    });
    s.once('end', () => {
      clearTimeout(timer);
      let json: unknown = null;
      try {
        json = JSON.parse(buf.trim());
      } catch {
        json = null;
      }
      const parsed = reply.safeParse(json);
      if (parsed.success) resolve(parsed.data);
      else reject(new Error(`collie: the bridge answered its ${name} with something unreadable`));
    });
  });
}
