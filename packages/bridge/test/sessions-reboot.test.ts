import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { StoppedSessions } from '@collie/protocol';
import { plainReply } from '@collie/testkit';
import { bridgeFor, until } from './harness';
import { claudeSessionsDesk, claudesTold, resumeSession } from './sessions-kit';

/**
 * After a reboot: two live Claude Code panes, the bridge stopped and their tmux server killed
 * under them; the bridge started again says both sessions were running and resumes each in a
 * window named as before (a new tmux server, none running), continuing the same conversation.
 */
describe('sessions running when the machine stopped', () => {
  it('are remembered (0600), offered after a restart with their panes gone, and each resumed in a window named as before', async () => {
    await using desk = await claudeSessionsDesk('collie-reboot-');
    const { tmux, api, state, cfg, config, a, b, env } = desk;
    const roots = { claude: [cfg.path], codex: [], gemini: [], opencode: [], pi: [] };
    const socketDir = join(tmux.tmpDir, `tmux-${process.getuid?.() ?? 0}`);
    const windows = new Map<string, string>();

    const [one, two] = await claudesTold(tmux, api, env, [[a.path, 'heron'], [b.path, 'otter']]);
    try {
      {
        await using bridge = await bridgeFor(tmux.tmpDir, state.path, { configDir: config.path, sessionRoots: roots });
        const file = join(state.path, 'running-sessions.json');
        await expect
          .poll(async () => ((JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as { sessions?: unknown[] }).sessions ?? []).length, { timeout: 30_000 })
          .toBe(2);
        expect((await stat(file)).mode & 0o777).toBe(0o600);
        for (const p of bridge.hub.panes.values()) if (p.harness === 'claude') windows.set(p.cwd ?? '', p.windowName);
        // The machine stops: the bridge first, then the tmux server under both agents.
      }
      await tmux.tmux('kill-server');
    } finally {
      await one.kill().catch(() => undefined);
      await two.kill().catch(() => undefined);
    }

    await using bridge = await bridgeFor(tmux.tmpDir, state.path, { configDir: config.path, sessionRoots: roots });
    const res = await fetch(`${bridge.url}/api/sessions/stopped`, { headers: bridge.device.headers });
    const stopped = (await res.json()) as StoppedSessions;
    expect(stopped.sessions.map((s) => [s.folder, s.title, s.window]).sort()).toEqual(
      [
        [a.path, 'remember the word heron', windows.get(a.path)],
        [b.path, 'remember the word otter', windows.get(b.path)],
      ].sort(),
    );
    try {
      const panes: string[] = [];
      for (const s of stopped.sessions) {
        // No tmux server runs now: the first resume starts one.
        const r = await resumeSession(bridge, 'claude', s.id, 'claude offline');
        panes.push(r.pane);
        await until(bridge.hub, `${s.folder} resumed`, (h) => h.panes.get(r.pane)?.harness === 'claude' && h.panes.get(r.pane)?.state === 'idle', 60_000);
        expect(bridge.hub.panes.get(r.pane)).toMatchObject({ cwd: s.folder, windowName: s.window });
      }
      const left = (await (await fetch(`${bridge.url}/api/sessions/stopped`, { headers: bridge.device.headers })).json()) as StoppedSessions;
      expect(left.sessions).toEqual([]);
      const heron = panes[stopped.sessions.findIndex((s) => s.folder === a.path)]!;
      const before = api.requests.length;
      api.script(plainReply('The word was heron.'));
      const server = ['-S', join(socketDir, 'default')];
      const id = heron.slice(heron.lastIndexOf(':') + 1);
      await promisify(execFile)('tmux', [...server, 'send-keys', '-t', id, '-l', 'what was the word?']);
      await until(bridge.hub, 'the text typed', () => true);
      await promisify(execFile)('tmux', [...server, 'send-keys', '-t', id, 'Enter']);
      await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'what was the word?', 60_000);
      const body = JSON.stringify(api.requests.slice(before).find((q) => q.kind === 'main' && q.prompt === 'what was the word?')?.body);
      expect(body).toContain('remember the word heron');
      expect(body).toContain('Noted: heron.');
    } finally {
      await promisify(execFile)('tmux', ['-S', join(socketDir, 'default'), 'kill-server']).catch(() => undefined);
    }
  }, 400_000);
});
