import { describe, expect, it } from 'vitest';
import { startAgentPane, startTmux, tempDir } from '@collie/testkit';
import { exited } from '../src/process-exit';

describe('an agent that never draws its ready screen', () => {
  it('fails naming what its processes were doing, and leaves none running', async () => {
    await using tmux = await startTmux();
    await using cwd = await tempDir('collie-agent-start-');
    let cleaned = false;
    // A stand-in agent that starts a child and draws nothing: as an agent stalled at start would.
    const start = startAgentPane(tmux, {
      prefix: 'stalled',
      cmd: ['sh', '-c', 'sleep 300 & wait'],
      cwd: cwd.path,
      env: { HOME: cwd.path },
      ready: /never drawn/,
      readyTimeoutMs: 800,
      cleanup: async () => {
        cleaned = true;
      },
    });
    const err = (await start.then(
      () => undefined,
      (e: Error) => e,
    )) as Error;
    expect(err.message).toMatch(/did not match \/never drawn\/ within 800 ms/);
    // The shell the pane ran and the child it waits on, each with its state and its threads.
    expect(err.message).toMatch(/^process \d+ \(parent \d+\) S \d+ ticks, waits in \S+: sh -c sleep 300 & wait$/m);
    const sleeper = /^process (\d+) \(parent \d+\) S \d+ ticks, waits in \S+: sleep 300$/m.exec(err.message);
    expect(sleeper).not.toBeNull();
    expect(err.message).toMatch(new RegExp(`^  thread ${sleeper![1]} S \\d+ ticks, waits in \\S+$`, 'm'));
    // The failed start ended what it started.
    expect(cleaned).toBe(true);
    expect(await exited(Number(sleeper![1]), 5_000)).toBe(true);
  });
});
