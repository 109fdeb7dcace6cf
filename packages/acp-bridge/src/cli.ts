import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { SourceName } from '@collie/protocol';
import { runAcp, type Registry } from './run';

/** What `collie durable acp [--name N] [--cwd DIR] [--serve] -- <command> [args…]` was given. */
export interface AcpCommand {
  command: string[];
  name?: string;
  cwd?: string;
  serve?: boolean;
}

/** A mistake on the command line, said in words; the CLI prints it and exits 1. */
export class AcpCommandError extends Error {}

/** The name from --name, else the command's own name made to fit ("gemini", "claude-agent-acp"). */
export function agentName(o: AcpCommand): string {
  const raw = o.name ?? basename(o.command[0] ?? '').replace(/\.(m?js|cjs)$/u, '').replace(/[^A-Za-z0-9_.-]+/gu, '-').replace(/^[^A-Za-z0-9]+/u, '').slice(0, 40);
  const n = SourceName.safeParse(raw);
  if (!n.success) throw new AcpCommandError(`collie: '${raw.slice(0, 60)}': ${n.error.issues[0]?.message ?? 'not a name'} (give one with --name)`);
  return n.data;
}

/** Runs until removed or interrupted (or, without --serve, until the agent ends); the exit code. */
export async function durableAcp(o: AcpCommand, registry: Registry, log = (l: string) => void process.stderr.write(`collie: ${l}\n`)): Promise<number> {
  const [command, ...args] = o.command;
  if (!command) throw new AcpCommandError('usage: collie durable acp [--name N] [--cwd DIR] [--serve] -- <command> [args…]');
  const name = agentName(o);
  const cwd = resolve(o.cwd ?? process.cwd());
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) throw new AcpCommandError(`collie: --cwd ${cwd}: not a folder`);
  const running = await runAcp({ name, serve: o.serve ?? false, agent: { command, args, cwd }, log }, registry);
  const stop = () => void running.stop();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const code = await running.done;
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  return code;
}
