import { spawn } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Pane } from '@collie/protocol';
import { repoRoot } from '@collie/testkit';
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
