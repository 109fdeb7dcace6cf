import { spawn } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Pane } from '@collie/protocol';
import { expect } from 'vitest';
import { repoRoot, startClaude, startMessagesApi, Started, startTmux, tempDir, type ApiRequest, type ClaudePane, type MessagesApi, type ScriptBlock, type TempDir, type TmuxServer, type Turn } from '@collie/testkit';
import { fakePane, type FakePane } from './fake-pane';
import type { Bridge } from '../../src/bridge';
import { until } from '../harness';

/** The binary the installed skill names (bin/collie.cjs), as agents run it. */
export const CLI = join(repoRoot, 'packages/cli/bin/collie.cjs');

/** A `collie` on PATH for panes: the built CLI under this Node. */
export async function collieBin(dir: string): Promise<string> {
  const bin = join(dir, 'bin');
  await mkdir(bin, { recursive: true });
  await writeFile(join(bin, 'collie'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"\n`);
  await chmod(join(bin, 'collie'), 0o755);
  return bin;
}

/** The environment a pane (or a test's CLI) needs to reach the bridge's state dir. */
export function walkyEnv(stateDir: string): Record<string, string> {
  return { COLLIE_STATE_DIR: stateDir, COLLIE_CONFIG_DIR: join(stateDir, 'config') };
}

/** Runs the built CLI as a child of this test (outside any pane). */
export function runCli(args: string[], env: Record<string, string>, stdin?: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, TMUX: '', TMUX_PANE: '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdin.end(stdin ?? '');
    child.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

/** The pane the hub sees for a tmux pane id, once it is an idle agent (or matches `ok`). */
export function paneOf(bridge: Bridge, tmuxId: string, ok: (p: Pane) => boolean = (p) => p.harness === 'claude' && (p.state === 'idle' || p.state === 'done') && p.draft === null, ms = 30_000): Promise<Pane> {
  return until(bridge.hub, `pane ${tmuxId}`, (h) => [...h.panes.values()].find((p) => p.tmuxId === tmuxId && ok(p)), ms);
}

/** A scripted turn that runs `command` through Claude Code's Bash tool. */
export const bash = (command: string): Turn => ({ blocks: [{ type: 'tool_use', name: 'Bash', input: { command, description: 'walky talky' } } as ScriptBlock], stopReason: 'tool_use' });
/** A scripted turn that says `text`. */
export const say = (text: string): Turn => ({ blocks: [{ type: 'text', text }] });
/** The first walky message id in `s` (or one that names none). */
export const idIn = (s: string) => /wt_[a-z0-9]{12}/.exec(s)?.[0] ?? 'wt_none';
/** The text of a request's last tool result. */
export const lastResult = (r: ApiRequest) => r.toolResults[r.toolResults.length - 1]?.text ?? '';

/**
 * Waits for the agent's `collie walky send` receipt (its tool result, `typed into the pane`),
 * checks it names the message and the pane `to`, and gives the message's id.
 */
export async function sentReceipt(api: { waitForRequest(match: (r: ApiRequest) => boolean, ms?: number): Promise<ApiRequest> }, to: Pane, ms: number): Promise<string> {
  const sent = await api.waitForRequest((r) => r.kind === 'main' && /typed into the pane/.test(lastResult(r)), ms);
  const receipt = lastResult(sent).trim().split('\n');
  expect(receipt[0]).toMatch(/^wt_[a-z0-9]{12}$/);
  expect(receipt[1]).toBe(`to ${to.address}, claude, ${to.label}`);
  expect(receipt[2]).toBe('typed into the pane');
  return receipt[0]!;
}

/** A walky test's desk: tmux, a scripted Messages API, a state dir, the walky env, a fake agent `sender` and a real Claude Code pane `target`; its bridge the test's. */
export interface WalkyDesk extends AsyncDisposable {
  readonly tmux: TmuxServer;
  readonly api: MessagesApi;
  readonly state: TempDir;
  /** The environment that points `collie walky` at this desk's state. */
  readonly env: Record<string, string>;
  readonly sender: FakePane;
  readonly claude: ClaudePane;
}

/** Starts a {@link WalkyDesk} (state dir named `prefix…`), stopped last first. */
export async function walkyDesk(prefix: string): Promise<WalkyDesk> {
  const started = new Started();
  return started.guard(async () => {
    const tmux = started.use(await startTmux());
    const api = started.use(await startMessagesApi());
    const state = started.use(await tempDir(prefix));
    const env = walkyEnv(state.path);
    const sender = await fakePane(tmux, state.path, 'sender', 'fresh-idle', env);
    const claude = started.use(await startClaude(tmux, api, { session: 'target' }));
    return { tmux, api, state, env, sender, claude, [Symbol.asyncDispose]: () => started[Symbol.asyncDispose]() };
  });
}
