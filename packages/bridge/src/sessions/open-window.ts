import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ApiError } from '../http/api-error';
import { formatLiteral } from '../mux/tmux';

export interface WindowOpener {
  /** The tmux servers followed and their sessions (New pane's own list). */
  sessions: () => Promise<{ server: string; session: string }[]>;
  /** Runs a tmux command on a followed server (through its tracker); its output lines. */
  command: (server: string, args: string[]) => Promise<string[]>;
  /** `<TMUX_TMPDIR>/tmux-<uid>`, where a new server's socket goes when none runs (after a reboot). */
  socketDir: string;
  env: NodeJS.ProcessEnv;
  /** Looks for servers now (the new one). */
  rescan: () => Promise<void>;
}

let fresh: Promise<string> = Promise.resolve('');

/** A window in the bridge's own session `collie` on the default socket, the server started when it does not run. */
async function inNewServer(o: WindowOpener, literal: readonly string[], argv: readonly string[]): Promise<string> {
  const tmux = (...args: string[]) => promisify(execFile)('tmux', ['-S', join(o.socketDir, 'default'), ...args], { env: o.env });
  const running = await tmux('has-session', '-t', '=collie').then(
    () => true,
    () => false,
  );
  const { stdout } = running
    ? await tmux('new-window', '-d', '-t', '=collie:', '-P', '-F', '#{pane_id}', ...literal, '--', ...argv)
    : await tmux('new-session', '-d', '-P', '-F', '#{pane_id}', '-s', 'collie', ...literal, '--', ...argv);
  const id = stdout.trim();
  if (!/^%\d+$/.test(id)) throw new ApiError('internal', `sessions: tmux answered '${id.slice(0, 100)}' for the new pane`);
  await o.rescan();
  return `default:${id}`;
}

/**
 * Opens a window named `name` in `folder` running `argv` (no shell): in `session` of `server`
 * (default: the first followed), as New pane does, or, when no tmux server runs at all (a
 * machine just rebooted), in a new server on the default socket. Names and folders go to tmux
 * as literals. Answers the pane's id (`<server>:<%id>`).
 */
export async function openWindow(o: WindowOpener, want: { server?: string | undefined; session?: string | null | undefined }, folder: string, argv: readonly string[], name: string): Promise<string> {
  const all = await o.sessions();
  const servers = [...new Set(all.map((s) => s.server))];
  const literal = ['-n', formatLiteral(name), '-c', formatLiteral(folder)];
  if (servers.length === 0 && want.server === undefined) {
    // One at a time: the first starts the server, the next (Resume all) opens a window in it,
    // even before discovery has found it.
    const opened = (fresh = fresh.catch(() => undefined).then(() => inNewServer(o, literal, argv)));
    return opened;
  }
  const server = want.server ?? servers[0];
  if (!server || !servers.includes(server)) throw new ApiError('bad_request', `sessions: no tmux server '${String(want.server).slice(0, 100)}'`);
  const session = want.session === undefined ? (all.find((s) => s.server === server)?.session ?? null) : want.session;
  const where = session === null ? ['new-session', '-d'] : ['new-window', '-d', '-t', `=${session}:`];
  const [id] = await o.command(server, [...where, '-P', '-F', '#{pane_id}', ...literal, '--', ...argv]);
  if (!id || !/^%\d+$/.test(id)) throw new ApiError('internal', `sessions: tmux answered '${String(id).slice(0, 100)}' for the new pane`);
  return `${server}:${id}`;
}
