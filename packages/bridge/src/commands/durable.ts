import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SourceName, sourceTarget, type Source } from '@collie/protocol';
import { writeFileAtomic } from '../config';
import { readSources, SOURCES_FILE } from '../durable/sources-file';
import { configOrThrow } from './config';
import { askBridge } from '../devices/devices-socket';

/** A CLI mistake, said in words; the CLI prints it and exits 1. */
class DurableCommandError extends Error {}

async function load(env: NodeJS.ProcessEnv): Promise<{ dir: string; agents: Source[] }> {
  const { configDir } = configOrThrow(env);
  const { agents, problem } = await readSources(configDir);
  if (problem) throw new DurableCommandError(`collie: ${join(configDir, SOURCES_FILE)}: ${problem}; fix or remove it first`);
  return { dir: configDir, agents };
}

async function save(dir: string, agents: Source[]): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // 0600: a remote agent's bearer token is kept here.
  await writeFileAtomic(join(dir, SOURCES_FILE), `${JSON.stringify({ agents }, null, 2)}\n`, 0o600);
}

/** `collie durable add <name> <socket|url>`: a socket path (made absolute) or an http(s) URL. */
export async function durableAdd(name: string, where: string, token: string | null, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const n = SourceName.safeParse(name);
  if (!n.success) throw new DurableCommandError(`collie: '${name.slice(0, 60)}': ${n.error.issues[0]?.message ?? 'not a name'}`);
  const source: Source = /^https?:\/\//i.test(where) ? { name, url: where, ...(token ? { token } : {}) } : { name, socket: resolve(where) };
  const target = sourceTarget(source);
  if (!target.ok) throw new DurableCommandError(`collie: ${name}: ${target.reason}${target.reason.includes('token') ? ' (give it with --token-stdin)' : ''}`);
  const { dir, agents } = await load(env);
  if (agents.some((a) => a.name === name)) throw new DurableCommandError(`collie: a durable agent named ${name} is already attached; remove it first`);
  await save(dir, [...agents, source]);
  return `attached ${name} (${target.local ? 'local' : 'remote'}): ${'socket' in source ? source.socket : source.url}`;
}

export async function durableRemove(name: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const { dir, agents } = await load(env);
  if (!agents.some((a) => a.name === name)) throw new DurableCommandError(`collie: no durable agent named ${name.slice(0, 60)} (see collie durable list)`);
  await save(dir, agents.filter((a) => a.name !== name));
  return `removed ${name}`;
}

/**
 * One line per agent: name, where, local or remote, and its state (with why, when unreachable)
 * as the running bridge sees it. The bridge is asked on its devices socket, so one started by
 * `collie demo` in its own process answers as well as `collie serve`'s.
 */
export async function durableList(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const { agents } = await load(env);
  if (agents.length === 0) return 'no durable agents (collie durable add <name> <socket|url>)';
  const { stateDir } = configOrThrow(env);
  const reply = await askBridge(stateDir, { op: 'durable' }, 2_000).catch(() => null);
  const states = new Map<string, string>();
  // An older bridge answers an unknown op with an error: it runs, but names no states.
  for (const a of reply?.type === 'durable' ? reply.agents : []) states.set(a.name, [a.state.replace('_', ' '), a.problem].filter(Boolean).join(': '));
  return agents
    .map((a) => {
      const t = sourceTarget(a);
      const where = 'socket' in a ? a.socket : a.url;
      return [a.name, where, t.ok ? (t.local ? 'local' : 'remote') : `refused: ${t.reason}`, states.get(a.name) ?? (reply ? '' : 'bridge not running')].filter(Boolean).join('  ');
    })
    .join('\n');
}
