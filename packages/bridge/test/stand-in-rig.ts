import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { repoRoot, startTmux, tempDir, testDevice, type TempDir, type TmuxServer } from '@collie/testkit';
import type { TestBridge } from './harness';
import { until } from './harness';
import { liveDesk, type LiveDesk } from './live-rig';

/** The soak's stand-in agent: a Claude Code screen with a live input box; logs every line submitted and every dialog answer. */
export const standIn = join(repoRoot, 'bench/soak/agent/claude');

/** What the stand-in logged: a line submitted to it, or a dialog answer. */
export interface StandInEntry {
  line?: string;
  answer?: unknown;
  /** The line was submitted while a turn ran (Claude Code would fold it into that turn). */
  inTurn?: boolean;
}

/** The stand-in's log, one entry a line. */
function entriesIn(text: string): StandInEntry[] {
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as StandInEntry);
}

/** A desk whose pane runs the stand-in agent, with a bridge that reads it idle. */
export interface StandInDesk extends LiveDesk {
  /** Commands to the stand-in (`dialog`, `blank`, …), one a line. */
  readonly fifo: string;
  readonly log: string;
  /** The tmux pane id (`%N`). */
  readonly pane: string;
  /** The bridge's pane id. */
  readonly id: string;
  readonly bridge: TestBridge;
  /** What it logged so far (throws while it has logged nothing). */
  lines(): StandInEntry[];
}

/** Starts the stand-in in a desk's tmux (`before` runs before the bridge starts) and waits for the bridge to read it idle. */
export async function standInDesk(prefix: string, before?: (desk: LiveDesk, pane: string) => Promise<void>): Promise<StandInDesk> {
  const desk = await liveDesk(prefix);
  try {
    const fifo = join(desk.work.path, 'fifo');
    const log = join(desk.work.path, 'log.jsonl');
    execFileSync('mkfifo', [fifo]);
    const pane = await desk.tmux.newSession('agent', { cmd: [process.execPath, standIn], env: { SOAK_FIFO: fifo, SOAK_LOG: log } });
    await before?.(desk, pane);
    const bridge = await desk.startBridge();
    const id = `${desk.tmux.name}:${pane}`;
    await until(bridge.hub, 'the idle agent', (h) => h.panes.get(id)?.harness === 'claude' && h.panes.get(id)?.state === 'idle');
    const lines = () => entriesIn(readFileSync(log, 'utf8'));
    return { ...desk, fifo, log, pane, id, bridge, lines };
  } catch (error) {
    await desk[Symbol.asyncDispose]();
    throw error;
  }
}

/**
 * For a built bridge in a process of its own (`bridgeProcess`, which a test can stop and kill):
 * a private tmux server whose session `agent` runs the stand-in, the state and work folders, a
 * paired device, and the environment the bridge runs with.
 */
export interface StandInWorld extends AsyncDisposable {
  readonly tmux: TmuxServer;
  readonly work: TempDir;
  readonly state: TempDir;
  readonly env: NodeJS.ProcessEnv;
  readonly auth: Record<string, string>;
  readonly fifo: string;
  /** The stand-in's tmux pane id (`%N`). */
  readonly pane: string;
  /** What it logged so far (nothing yet: none). */
  entries(): StandInEntry[];
  /** A control line to the stand-in (`dialog`, `lag 500`, …), once it said it took it. */
  control(line: string): Promise<void>;
}

export async function standInWorld(prefix: string): Promise<StandInWorld> {
  const tmux = await startTmux();
  const work = await tempDir(prefix);
  const state = await tempDir('collie-state');
  const dispose = async () => {
    await state[Symbol.asyncDispose]();
    await work[Symbol.asyncDispose]();
    await tmux[Symbol.asyncDispose]();
  };
  try {
    const env = { ...process.env, TMUX_TMPDIR: tmux.tmpDir, COLLIE_STATE_DIR: state.path, COLLIE_CONFIG_DIR: join(state.path, 'config'), COLLIE_NO_SYSTEMD: '1' };
    const auth = (await testDevice(state.path)).headers;
    const fifo = join(work.path, 'fifo');
    const log = join(work.path, 'log.jsonl');
    execFileSync('mkfifo', [fifo]);
    const pane = await tmux.newSession('agent', { cmd: [process.execPath, standIn], env: { SOAK_FIFO: fifo, SOAK_LOG: log } });
    const entries = () => entriesIn(existsSync(log) ? readFileSync(log, 'utf8') : '');
    const control = async (line: string) => {
      writeFileSync(`${fifo}.ack`, '');
      writeFileSync(fifo, `${line}\n`);
      await expect.poll(() => readFileSync(`${fifo}.ack`, 'utf8'), { timeout: 5_000, interval: 20 }).toBe(line.split(' ')[0]);
    };
    return { tmux, work, state, env, auth, fifo, pane, entries, control, [Symbol.asyncDispose]: dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
