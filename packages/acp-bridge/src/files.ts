import { spawn, type ChildProcess } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';
import type * as acp from '@agentclientprotocol/sdk';

/**
 * The agent's file-system and terminal requests, served inside the session's folder only. A
 * path is checked after symlinks are resolved (of the file, else of its nearest folder), so a
 * link inside the folder that points out of it is refused too.
 */

const MAX_READ = 4 * 1024 * 1024;
const MAX_TERMINAL_OUTPUT = 1024 * 1024;

function real(path: string): string {
  let p = path;
  for (;;) {
    try {
      const r = realpathSync(p);
      return p === path ? r : resolve(r, relative(p, path));
    } catch {
      const up = dirname(p);
      if (up === p) return path;
      p = up;
    }
  }
}

/** The path inside `root`, or a RequestError that says it is outside. */
export function inside(root: string, path: string): string {
  if (typeof path !== 'string' || !isAbsolute(path) || path.includes('\0')) throw RequestError.invalidParams(undefined, 'the path must be absolute');
  const r = real(resolve(root));
  const p = real(resolve(path));
  const rel = relative(r, p);
  if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) return p;
  throw RequestError.invalidParams(undefined, `refused: ${path.slice(0, 200)} is outside the session's folder ${r}`);
}

export async function readText(root: string, req: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
  const text = await readFile(inside(root, req.path), 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw RequestError.resourceNotFound(`${req.path.slice(0, 200)}: ${err.code ?? 'unreadable'}`);
  });
  if (text.length > MAX_READ) throw RequestError.invalidParams(undefined, 'the file is over 4 MiB');
  const lines = text.split('\n');
  const from = Math.max(0, (req.line ?? 1) - 1);
  const to = req.limit != null ? from + Math.max(0, req.limit) : lines.length;
  return { content: req.line != null || req.limit != null ? lines.slice(from, to).join('\n') : text };
}

export async function writeText(root: string, req: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse> {
  await writeFile(inside(root, req.path), req.content, 'utf8');
  return {};
}

/** The terminals one agent process opened: each a command run in a folder inside the root. */
export class Terminals {
  private readonly open = new Map<string, { child: ChildProcess; output: string; truncated: boolean; exit: Promise<acp.TerminalExitStatus> }>();
  private seq = 0;

  create(root: string, req: acp.CreateTerminalRequest): acp.CreateTerminalResponse {
    const cwd = inside(root, req.cwd ?? root);
    if (this.open.size >= 16) throw RequestError.invalidParams(undefined, 'too many terminals open');
    const env = { ...process.env, ...Object.fromEntries((req.env ?? []).map((e) => [e.name, e.value])) };
    const child = spawn(req.command, req.args ?? [], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const limit = Math.min(req.outputByteLimit ?? MAX_TERMINAL_OUTPUT, MAX_TERMINAL_OUTPUT);
    const t = { child, output: '', truncated: false, exit: new Promise<acp.TerminalExitStatus>((r) => {
      child.on('error', () => r({ exitCode: 127, signal: null }));
      child.on('close', (code, signal) => r({ exitCode: code, signal }));
    }) };
    const add = (d: Buffer) => {
      t.output += d.toString('utf8');
      if (Buffer.byteLength(t.output) > limit) {
        t.output = t.output.slice(-limit);
        t.truncated = true;
      }
    };
    child.stdout?.on('data', add);
    child.stderr?.on('data', add);
    const id = `term-${++this.seq}`;
    this.open.set(id, t);
    return { terminalId: id };
  }

  async output(id: string): Promise<acp.TerminalOutputResponse> {
    const t = this.get(id);
    const done = await Promise.race([t.exit, Promise.resolve(null)]);
    return { output: t.output, truncated: t.truncated, exitStatus: done };
  }

  async waitForExit(id: string): Promise<acp.WaitForTerminalExitResponse> {
    return this.get(id).exit;
  }

  kill(id: string): acp.KillTerminalResponse {
    this.get(id).child.kill('SIGTERM');
    return {};
  }

  release(id: string): acp.ReleaseTerminalResponse {
    this.get(id).child.kill('SIGTERM');
    this.open.delete(id);
    return {};
  }

  closeAll(): void {
    for (const t of this.open.values()) t.child.kill('SIGKILL');
    this.open.clear();
  }

  private get(id: string) {
    const t = this.open.get(id);
    if (!t) throw RequestError.invalidParams(undefined, `no terminal ${String(id).slice(0, 40)}`);
    return t;
  }
}
