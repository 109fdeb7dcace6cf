/**
 * One Claude runtime: the Agent SDK's `query()` in streaming-input mode, so an interrupt ends
 * the turn and `stopTask` ends one task. The only code that calls the SDK.
 */
import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { query, type Query, type SDKMessage, type SDKUserMessage, type SpawnOptions } from '@anthropic-ai/claude-agent-sdk';

/** How much of the process's stderr is kept for the error of a runtime that ends on its own. */
const STDERR_TAIL = 2_000;

/** How long a closed runtime's process has to end (the SDK's stdin EOF and grace, then its SIGTERM) before SIGKILL. */
export const PROCESS_END_WAIT_MS = 5_000;

/**
 * Every runtime process still running. The SDK's own kill after a close rides unref'd timers, so
 * a process that exits just after closing a runtime (a gateway shutdown) would leave the `claude`
 * behind: these are ended as this process exits.
 */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of running) c.kill('SIGTERM');
});

export interface RuntimeOptions {
  cwd: string;
  model?: string;
  env: Record<string, string | undefined>;
  /** The `claude` binary; default: the one the SDK installs. */
  executable?: string;
  /** `initialize` flags (spec "Configuration": read when a runtime starts). */
  perTaskStopAffordance: boolean;
  agentProgressSummaries: boolean;
  forwardSubagentText: boolean;
  /** A runtime session to resume (the next message after a force stop starts a new one on it). */
  resume?: string;
  onMessage(msg: SDKMessage): void;
  /** The runtime ended: by close (`closed`), or on its own (an error or the process exiting). */
  onEnd(how: 'closed' | 'process_ended', err?: unknown): void;
}

/** A small async inbox: the SDK pulls user messages from it as the session sends them. */
class Inbox implements AsyncIterable<SDKUserMessage> {
  private items: SDKUserMessage[] = [];
  private wake: (() => void) | null = null;
  private done = false;
  push(m: SDKUserMessage): void {
    this.items.push(m);
    this.wake?.();
  }
  end(): void {
    this.done = true;
    this.wake?.();
  }
  async *[Symbol.asyncIterator](): AsyncIterator<SDKUserMessage> {
    for (;;) {
      const next = this.items.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.done) return;
      await new Promise<void>((r) => (this.wake = r));
      this.wake = null;
    }
  }
}

export class Runtime {
  private readonly inbox = new Inbox();
  private readonly q: Query;
  private closed = false;
  private child: ChildProcess | null = null;
  private stderrTail = '';

  constructor(private readonly opts: RuntimeOptions) {
    this.q = query({
      prompt: this.inbox,
      options: {
        cwd: opts.cwd,
        env: opts.env,
        ...(opts.model ? { model: opts.model } : {}),
        ...(opts.executable ? { pathToClaudeCodeExecutable: opts.executable } : {}),
        ...(opts.resume ? { resume: opts.resume } : {}),
        perTaskStopAffordance: opts.perTaskStopAffordance,
        agentProgressSummaries: opts.agentProgressSummaries,
        forwardSubagentText: opts.forwardSubagentText,
        permissionMode: 'default',
        // Nerve's sessions run their tools; who may use a Nerve is decided at its API's gates.
        canUseTool: (_name, input) => Promise.resolve({ behavior: 'allow', updatedInput: input }),
        settingSources: [],
        spawnClaudeCodeProcess: (o) => this.spawn(o),
      },
    });
    void this.pump();
  }

  private async pump(): Promise<void> {
    try {
      for await (const msg of this.q) this.opts.onMessage(msg);
      this.opts.onEnd(this.closed ? 'closed' : 'process_ended');
    } catch (err) {
      const tail = this.stderrTail.trim();
      this.opts.onEnd(this.closed ? 'closed' : 'process_ended', tail && !this.closed ? new Error(`${String(err)} (stderr: ${tail})`) : err);
    }
  }

  /**
   * Sends one user message (Nerve keeps its own queue). At priority `later` it waits for a turn
   * the CLI runs on its own (woken by a background task) to end and runs as a turn of its own;
   * at the default the CLI shows it to the model inside that turn's next tool result.
   */
  send(text: string): string {
    const uuid = randomUUID();
    this.inbox.push({ type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null, uuid, session_id: '', priority: 'later' });
    return uuid;
  }

  /** Ends the current turn; with perTaskStopAffordance, background tasks keep running. */
  async interrupt(): Promise<void> {
    await this.q.interrupt();
  }

  async stopTask(taskId: string): Promise<void> {
    await this.q.stopTask(taskId);
  }

  /** The `claude` process, started as the SDK asks; kept so a close can see it end. */
  private spawn(o: SpawnOptions): ChildProcessByStdio<Writable, Readable, Readable> {
    const child = spawn(o.command, o.args, { cwd: o.cwd, env: o.env, signal: o.signal, stdio: ['pipe', 'pipe', 'pipe'] });
    child.on('error', () => undefined);
    // Drained (a full pipe would stall the CLI); its tail goes with the error of a runtime that ends on its own.
    child.stderr.on('data', (d: Buffer) => (this.stderrTail = (this.stderrTail + d.toString()).slice(-STDERR_TAIL)));
    running.add(child);
    child.once('exit', () => running.delete(child));
    this.child = child;
    return child;
  }

  /**
   * Shuts the runtime down (force stop, model switch, archive, gateway shutdown). Resolves when its
   * process has ended: on its own after stdin ends, by the SDK's SIGTERM after its grace, or by
   * SIGKILL after {@link PROCESS_END_WAIT_MS}.
   */
  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.inbox.end();
      this.q.close();
    }
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(() => child.kill('SIGKILL'), PROCESS_END_WAIT_MS);
      child.once('exit', () => {
        clearTimeout(t);
        resolve();
      });
    });
  }
}
