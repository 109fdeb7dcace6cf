import { existsSync } from 'node:fs';
import { expect, test } from 'vitest';
import { claudeInputReady, claudePermissionDialog, claudeWorking, codexApproval, geminiInputReady, listSessions, runDemo, startDemo, tempDir, type Demo } from '../src';

test('collie demo: three real Claude panes, a real Codex and a real Gemini CLI, and a shell, the long turn keeps going, all torn down on stop', async () => {
  await using sockets = await tempDir('collie-demo-sockets-');
  const name = `collie-demo-test-${process.pid}`;
  const ctl = new AbortController();
  const lines: string[] = [];
  let seen: Demo | undefined;

  await runDemo({
    name,
    tmpDir: sockets.path,
    stepMs: 1_500,
    signal: ctl.signal,
    log: (l) => lines.push(l),
    async ready(demo) {
      seen = demo;
      const list = (await demo.tmux.tmux('list-panes', '-a', '-F', '#{session_name}:#{window_index} #{pane_id}')).trim().split('\n');
      expect(list.sort()).toEqual(demo.panes.map((p) => `${p.target} ${p.paneId}`).sort());
      expect(demo.panes.map((p) => p.role)).toEqual(['working', 'permission', 'idle', 'codex-approval', 'gemini-idle', 'shell']);
      expect(demo.panes.map((p) => p.target).sort()).toEqual(['demo-shell:0', 'demo:0', 'demo:1', 'demo:2', 'demo:3', 'demo:4']);

      const [working, permission, idle] = demo.panes;
      // The endless turn restarts itself: its next step carries the previous step's tool result.
      await working!.api!.waitForRequest((r) => r.kind === 'main' && r.toolResults.length > 0, 20_000);
      expect(claudeWorking(await demo.tmux.capture(working!.paneId))).toBe(true);
      expect(claudePermissionDialog(await demo.tmux.capture(permission!.paneId))).toBe(true);
      expect(claudeInputReady(await demo.tmux.capture(idle!.paneId))).toBe(true);
      const pane = (role: string) => demo.panes.find((p) => p.role === role)!.paneId;
      expect(codexApproval(await demo.tmux.capture(pane('codex-approval')))).toBe(true);
      expect(geminiInputReady(await demo.tmux.capture(pane('gemini-idle')))).toBe(true);

      // A second demo under the same server name refuses rather than take over these panes.
      await expect(startDemo({ name, tmpDir: sockets.path, log: () => undefined })).rejects.toThrow(/already running/);
      ctl.abort();
    },
  });

  expect(lines.join('\n')).toContain(seen!.tmux.socketPath);
  // Both programs are installed for the tests (packages/testkit/agents): neither pane was skipped.
  expect(lines.join('\n')).not.toMatch(/no (?:Codex|Gemini CLI) pane/);
  expect(lines.at(-1)).toBe('collie demo: stopped.');
  expect(existsSync(seen!.tmux.socketPath)).toBe(false);
  expect(await listSessions(name, sockets.path)).toEqual([]);
}, 240_000);
