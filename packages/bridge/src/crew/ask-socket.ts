/**
 * `<state>/crew/ask.sock` (0600, in the 0700 crew dir): the CLI's way to the running lead, so
 * `collie crew update --all` asks each member its version now, over the member's own stream.
 * One JSON line each way per connection; the file mode is the check, as for every local socket.
 */
import { join } from 'node:path';
import { CrewAskCommand, CrewAskReply } from '@collie/protocol';
import { askLineSocket, serveLineSocket } from '../config/line-socket';

export const askSocketPath = (stateDir: string) => join(stateDir, 'crew', 'ask.sock');

export type AskVersions = () => Promise<Extract<CrewAskReply, { type: 'versions' }>['members']>;

/** Each member's version now, asked over its own stream (5 s each), or why it could not be asked. */
export function memberVersions(members: { name: string }[], connected: (name: string) => boolean, phone: { version(member: string, ms?: number): Promise<string> }): ReturnType<AskVersions> {
  return Promise.all(
    members.map(async (m) => {
      if (!connected(m.name)) return { name: m.name, version: null, reachable: false, problem: 'not connected to the lead' };
      try {
        return { name: m.name, version: await phone.version(m.name, 5000), reachable: true, problem: null };
      } catch (err) {
        return { name: m.name, version: null, reachable: true, problem: (err as Error).message.replace(/^crew: /, '') };
      }
    }),
  );
}

export function serveAskSocket(stateDir: string, versions: AskVersions): Promise<{ close(): Promise<void> }> {
  return serveLineSocket(askSocketPath(stateDir), {
    name: 'crew socket',
    maxLine: 4 * 1024,
    command: CrewAskCommand,
    run: async (): Promise<CrewAskReply> => ({ type: 'versions', members: await versions() }),
    error: (code, message): CrewAskReply => ({ type: 'error', error: { code, message } }),
  });
}

/** Asks the running lead; null when no bridge listens on this state dir. */
export function askCrew(stateDir: string, cmd: CrewAskCommand, timeoutMs = 15_000): Promise<CrewAskReply | null> {
  return askLineSocket(askSocketPath(stateDir), 'crew socket', cmd, CrewAskReply, timeoutMs);
}
