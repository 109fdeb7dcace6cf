/**
 * One Claude runtime: the Agent SDK's `query()` in streaming-input mode, so an interrupt ends
 * the turn and `stopTask` ends one task. The only code that calls the SDK.
 */
import { randomUUID } from 'node:crypto';
import { query, type Query, type SDKMessage, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';

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
      },
    });
    void this.pump();
  }

  private async pump(): Promise<void> {
    try {
      for await (const msg of this.q) this.opts.onMessage(msg);
      this.opts.onEnd(this.closed ? 'closed' : 'process_ended');
    } catch (err) {
      this.opts.onEnd(this.closed ? 'closed' : 'process_ended', err);
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

  /** Shuts the runtime down (force stop, model switch, archive, gateway shutdown). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.inbox.end();
    this.q.close();
  }
}
