import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { startTmux, tempDir } from '../src';

const run = promisify(execFile);

describe('private tmux server', () => {
  test('starts in its own TMUX_TMPDIR, shows panes, and kill removes everything', async () => {
    const tmux = await startTmux();
    try {
      expect(tmux.name).toMatch(/^collie-test-[0-9a-f]+$/);
      expect(statSync(tmux.tmpDir).mode & 0o777).toBe(0o700);
      expect(tmux.socketPath).toBe(`${tmux.tmpDir}/tmux-${process.getuid!()}/${tmux.name}`);
      expect(statSync(tmux.socketPath).isSocket()).toBe(true);
      expect(tmux.env.TMUX_TMPDIR).toBe(tmux.tmpDir);
      expect(tmux.env.TMUX).toBeUndefined();

      // An empty server stays up, so a bridge sees no placeholder pane.
      expect((await tmux.tmux('list-sessions', '-F', '#{session_name}')).trim()).toBe('');

      const first = await tmux.newSession('work', { cmd: 'cat', width: 100, height: 30 });
      const split = await tmux.splitWindow(first, { cmd: 'cat', horizontal: true });
      const window = await tmux.newWindow('work', { cmd: ['sh', '-c', 'echo "from $GREETING"; exec cat'], env: { GREETING: 'env' } });
      for (const id of [first, split, window]) expect(id).toMatch(/^%\d+$/);
      const panes = (await tmux.tmux('list-panes', '-a', '-F', '#{session_name} #{pane_id}')).trim().split('\n');
      expect(panes).toEqual([`work ${first}`, `work ${split}`, `work ${window}`]);

      await tmux.waitForScreen(window, /from env/, 5_000);
      await tmux.typeText(first, 'typed text');
      await tmux.sendKeys(first, 'Enter');
      const screen = await tmux.waitForScreen(first, (s) => s.split('\n').filter((l) => l === 'typed text').length === 2, 5_000);
      expect(screen.startsWith('typed text\ntyped text')).toBe(true);

      const styled = await tmux.newWindow('work', { cmd: ['sh', '-c', "printf '\\033[1mbold\\033[0m\\n'; exec cat"] });
      await tmux.waitForScreen(styled, /bold/, 5_000);
      expect(await tmux.capture(styled, { escapes: true })).toContain('\u001b[1mbold');
      expect(await tmux.capture(styled)).not.toContain('\u001b');
      await tmux.killPane(styled);

      await tmux.killPane(split);
      expect((await tmux.tmux('list-panes', '-a', '-F', '#{pane_id}')).trim().split('\n')).toEqual([first, window]);
    } finally {
      await tmux.kill();
    }
    expect(existsSync(tmux.socketPath)).toBe(false);
    expect(existsSync(tmux.tmpDir)).toBe(false);
    await expect(run('tmux', ['-L', tmux.name, 'list-sessions'], { env: tmux.env })).rejects.toThrow();
    await tmux.kill(); // twice is fine
  });

  test('two servers do not see each other, and the caller can share a socket dir', async () => {
    await using dir = await tempDir('collie-sockets-');
    await using a = await startTmux({ tmpDir: dir.path });
    await using b = await startTmux({ tmpDir: dir.path });
    await a.newSession('only-a', { cmd: 'cat' });
    expect((await b.tmux('list-sessions', '-F', '#{session_name}').catch(() => '')).trim()).toBe('');
    await a.kill();
    // A caller's dir stays; only the socket goes.
    expect(existsSync(a.socketPath)).toBe(false);
    expect(existsSync(dir.path)).toBe(true);
    expect(existsSync(b.socketPath)).toBe(true);
  });

  test('waitForScreen names the pane and shows the last screen when it times out', async () => {
    await using tmux = await startTmux();
    const pane = await tmux.newSession('w', { cmd: ['sh', '-c', 'echo visible; exec cat'] });
    await tmux.waitForScreen(pane, /visible/, 5_000);
    await expect(tmux.waitForScreen(pane, /never/, 200)).rejects.toThrow(/pane %\d+ .*did not match \/never\/ within 200 ms; last screen:\nvisible/s);
  });

  test('ends a pane program that ignores the hang-up, and its children, with the server', async () => {
    const tmux = await startTmux();
    // A program that outlives kill-server's hang-up, with a child of its own.
    const pane = await tmux.newSession('stubborn', { cmd: ['sh', '-c', 'trap "" HUP; sleep 300 & echo "child $!"; wait'] });
    const child = Number(/child (\d+)/.exec(await tmux.waitForScreen(pane, /child \d+/, 5_000))?.[1]);
    const leader = Number((await tmux.tmux('display-message', '-p', '-t', pane, '#{pane_pid}')).trim());
    await tmux.kill();
    // Gone, or a zombie about to be reaped: never left running.
    const running = (pid: number) => {
      try {
        return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    expect([leader, child].filter(running)).toEqual([]);
  });
});
