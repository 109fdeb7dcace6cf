/**
 * A clean shutdown (SIGTERM to `nerve serve`, a child process of the test) with a background
 * shell live: the gateway asks the runtime to stop the shell's task and waits for the answer
 * before it closes the CLI and exits, at most 5 s. The runtime is the real Agent SDK against the
 * testkit's scripted stream-json CLI, which answers stop_task late (or never) and logs when.
 */
import type { ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentListAnswer, NerveApiFile, SessionInfo } from '@collie/protocol';
import { tempDir } from '@collie/testkit';
import { TASK_STOP_WAIT_MS } from '../src/session/session';
import { openDb } from '../src/store/db';
import { Store } from '../src/store/store';
import { assistant, FAKE, until } from './fast-kit';
import { startNerveProcess } from './harness';

type CliEvent = { event: 'stop_task' | 'stop_task_answered' | 'closed'; task_id?: string; at: number };

async function shutdownWithShell(script: Record<string, unknown>) {
  const dir = await tempDir('nerve-shutdown-');
  const scriptFile = join(dir.path, 'script.json');
  const events = join(dir.path, 'cli-events.log');
  await writeFile(
    scriptFile,
    JSON.stringify({
      ...script,
      turns: [
        {
          frames: [
            assistant([{ type: 'tool_use', id: 'toolu_sh', name: 'Bash', input: { command: 'sleep 600', description: 'A long shell', run_in_background: true } }]),
            { type: 'system', subtype: 'task_started', task_id: 'bash_1', tool_use_id: 'toolu_sh', description: 'A long shell', task_type: 'local_bash', is_backgrounded: true },
          ],
        },
      ],
    }),
  );
  const config = join(dir.path, 'config.yaml');
  await writeFile(config, `listen:\n  port: 0\nstate_dir: ${join(dir.path, 'state')}\ncwd: ${dir.path}\nclaude_path: ${FAKE}\nenv:\n  FAKE_CLAUDE_SCRIPT: ${scriptFile}\n  FAKE_CLAUDE_EVENTS: ${events}\nagent:\n  subagents:\n    progress_summaries: false\n`);
  const nerve = await startNerveProcess(config, process.env);
  const { token } = NerveApiFile.parse(JSON.parse(await readFile(join(dir.path, 'state', 'api.json'), 'utf8')));
  const api = async (path: string, body?: unknown) =>
    (await fetch(`${nerve.url}/api${path}`, { method: body === undefined ? 'GET' : 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })).json();
  const s = SessionInfo.parse(await api('/sessions', {}));
  await api(`/sessions/${s.session_id}/messages`, { text: 'start a shell' });
  await until(async () => AgentListAnswer.parse(await api(`/sessions/${s.session_id}/agents`)).agents.some((a) => a.status === 'running'), 'the shell running');

  const exited = new Promise<{ code: number | null; at: number }>((resolve) => nerve.child.once('exit', (code) => resolve({ code, at: Date.now() })));
  const termAt = Date.now();
  nerve.child.kill('SIGTERM');
  const exit = await exited;
  const read = async () =>
    (await readFile(events, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as CliEvent);
  // The CLI notes its close itself, a moment after the gateway closed it.
  await until(async () => (await read()).some((e) => e.event === 'closed'), 'the CLI to be closed', 15_000);
  const cli = await read();
  return { dir, exit, termAt, cli, stateDir: join(dir.path, 'state'), sessionId: s.session_id, child: nerve.child as ChildProcess };
}

describe('nerve clean shutdown', () => {
  it("SIGTERM waits for the shell's stop_task answer before it closes the CLI and exits 0", async () => {
    const r = await shutdownWithShell({ stopTaskDelayMs: 1_500 });
    try {
      expect(r.exit.code).toBe(0);
      expect(r.cli.map((e) => [e.event, e.task_id])).toEqual([
        ['stop_task', 'bash_1'],
        ['stop_task_answered', 'bash_1'],
        ['closed', undefined],
      ]);
      // The answer came 1.5 s after the request; the gateway was still there for it.
      const answered = r.cli[1]!.at;
      expect(answered - r.cli[0]!.at).toBeGreaterThanOrEqual(1_400);
      // The CLI was closed only after it answered, and the gateway was still there for the answer.
      expect(r.cli[2]!.at).toBeGreaterThanOrEqual(answered);
      expect(r.exit.at).toBeGreaterThanOrEqual(answered);
    } finally {
      await r.dir.remove();
    }
  });

  it('a stop_task never answered holds the shutdown at most 5 s; the shell ends interrupted (gateway_restart)', async () => {
    const r = await shutdownWithShell({ stopTaskSilent: true });
    try {
      expect(r.exit.code).toBe(0);
      expect(r.cli.map((e) => e.event)).toEqual(['stop_task', 'closed']);
      // It waited the bound, then closed the CLI anyway, and exited soon after.
      expect(r.cli[1]!.at - r.cli[0]!.at).toBeGreaterThanOrEqual(TASK_STOP_WAIT_MS - 100);
      expect(r.exit.at - r.termAt).toBeLessThan(TASK_STOP_WAIT_MS + 10_000);
      // The status was written before the wait: the restart finds nothing to settle.
      const store = new Store(openDb(join(r.stateDir, 'nerve.db')));
      try {
        expect(store.agents(r.sessionId).map((a) => [a.kind, a.status, a.reason])).toEqual([['shell', 'interrupted', 'gateway_restart']]);
      } finally {
        store.db.close();
      }
    } finally {
      await r.dir.remove();
    }
  });
});
