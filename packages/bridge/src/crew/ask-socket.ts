/**
 * `<state>/crew/ask.sock` (0600, in the 0700 crew dir): the CLI's way to the running lead, so
 * `collie crew update --all` asks each member its version now, over the member's own stream.
 * One JSON line each way per connection; the file mode is the check, as for every local socket.
 */
import { chmod, rm } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { CrewAskCommand, CrewAskReply } from '@collie/protocol';

const MAX_LINE = 4 * 1024;

export const askSocketPath = (stateDir: string) => join(stateDir, 'crew', 'ask.sock');

export type AskVersions = () => Promise<Extract<CrewAskReply, { type: 'versions' }>['members']>;

export async function serveAskSocket(stateDir: string, versions: AskVersions): Promise<{ close(): Promise<void> }> {
  const path = askSocketPath(stateDir);
  await rm(path, { force: true });
  const answer = async (line: string): Promise<CrewAskReply> => {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return { type: 'error', error: { code: 'bad_json', message: 'crew socket: that line is not JSON' } };
    }
    const cmd = CrewAskCommand.safeParse(json);
    if (!cmd.success) return { type: 'error', error: { code: 'bad_request', message: `crew socket: ${cmd.error.issues[0]?.message ?? 'unknown command'}` } };
    return { type: 'versions', members: await versions() };
  };
  const server: Server = createServer((conn) => {
    let buf = '';
    conn.setEncoding('utf8');
    conn.on('error', () => conn.destroy());
    conn.on('data', (chunk: string) => {
      buf += chunk;
      if (buf.length > MAX_LINE) return void conn.end(`${JSON.stringify({ type: 'error', error: { code: 'bad_request', message: 'crew socket: line over 4 KiB' } })}\n`);
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      conn.pause();
      void answer(buf.slice(0, nl)).then((reply) => conn.end(`${JSON.stringify(reply)}\n`));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  await chmod(path, 0o600);
  return { close: () => new Promise<void>((resolve) => server.close(() => void rm(path, { force: true }).then(() => resolve()))) };
}

/** Asks the running lead; null when no bridge listens on this state dir. */
export function askCrew(stateDir: string, cmd: CrewAskCommand, timeoutMs = 15_000): Promise<CrewAskReply | null> {
  return new Promise((resolve, reject) => {
    const s = connect(askSocketPath(stateDir));
    let buf = '';
    let connected = false;
    const timer = setTimeout(() => (s.destroy(), reject(new Error(`the bridge did not answer on ${askSocketPath(stateDir)} within ${timeoutMs / 1000} s`))), timeoutMs);
    s.setEncoding('utf8');
    s.once('connect', () => {
      connected = true;
      s.write(`${JSON.stringify(cmd)}\n`);
    });
    s.on('data', (d: string) => (buf += d));
    s.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (!connected && (e.code === 'ENOENT' || e.code === 'ECONNREFUSED')) resolve(null);
      else reject(new Error(`crew socket: ${e.message}`));
    });
    s.once('end', () => {
      clearTimeout(timer);
      let json: unknown = null;
      try {
        json = JSON.parse(buf.trim());
      } catch {
        json = null;
      }
      const parsed = CrewAskReply.safeParse(json);
      if (parsed.success) resolve(parsed.data);
      else reject(new Error('the bridge answered its crew socket with something unreadable'));
    });
  });
}
