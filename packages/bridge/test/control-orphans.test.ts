/**
 * A bridge killed with -9 leaves its `tmux -C` control clients to tmux, and tmux 3.3a keeps some
 * of them attached for good (the soak saw 2 of about 8 left after each kill, and a `kill-server`
 * then left the server running, waiting on them). Each client carries the mark of the bridge
 * that started it; a bridge that starts ends the clients whose bridge no longer runs, and no
 * other client: the user's own, or one of a bridge that still runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { CONTROL_OWNER_ENV, ownerOf, processMark } from '../src/mux/tmux/orphans';
import { liveDesk } from './live-rig';

/** A process's mark while it runs; `end` ends it (the mark then names a process gone). */
async function markedProcess(): Promise<{ mark: string; end(): Promise<void> }> {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  await once(child, 'spawn');
  const mark = processMark(child.pid!);
  if (!mark) throw new Error('no /proc here');
  return {
    mark,
    end: async () => {
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}

/** The clients attached to the server, by pid. */
async function clientPids(tmux: { tmux(...args: string[]): Promise<string> }): Promise<number[]> {
  return (await tmux.tmux('list-clients', '-F', '#{client_pid}')).trim().split('\n').filter(Boolean).map(Number);
}

describe('control clients a dead bridge left', () => {
  it('a bridge that starts ends them, and leaves every other client attached', async () => {
    await using desk = await liveDesk('collie-orphans');
    await desk.tmux.newSession('work', { cmd: 'cat' });
    const dead = await markedProcess();
    const living = await markedProcess();
    await dead.end();
    const clients: ChildProcess[] = [];
    // Their stdin stays open in this process: only the bridge's start can end them.
    const attach = async (owner: string | null) => {
      const env = { ...desk.tmux.env, ...(owner ? { [CONTROL_OWNER_ENV]: owner } : {}) };
      const c = spawn('tmux', ['-S', desk.tmux.socketPath, '-C', 'attach-session', '-t', 'work'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
      c.stdout!.resume();
      clients.push(c);
      await expect.poll(() => clientPids(desk.tmux), { timeout: 10_000 }).toContain(c.pid);
      return c;
    };
    try {
      const orphans = [await attach(dead.mark), await attach(dead.mark)];
      const user = await attach(null);
      const other = await attach(living.mark);
      expect(ownerOf(orphans[0]!.pid!)).toBe(dead.mark);

      const bridge = await desk.startBridge();
      // The dead bridge's clients end as the bridge starts: by the time it is up, they are gone.
      await expect.poll(() => orphans.map((c) => c.exitCode !== null || c.signalCode !== null), { timeout: 5_000 }).toEqual([true, true]);
      const left = await clientPids(desk.tmux);
      expect(left).toEqual(expect.arrayContaining([user.pid, other.pid]));
      expect(left).not.toContain(orphans[0]!.pid);
      expect(left).not.toContain(orphans[1]!.pid);
      // The bridge's own clients carry its mark, so a bridge after it can tell them apart.
      const own = left.filter((pid) => pid !== user.pid && pid !== other.pid);
      expect(own.length).toBeGreaterThan(0);
      expect(own.map(ownerOf)).toEqual(own.map(() => processMark(process.pid)));
      expect(bridge.hub.panes.size).toBeGreaterThan(0);
    } finally {
      for (const c of clients) c.kill('SIGKILL');
      await living.end();
    }
  });
});
