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
