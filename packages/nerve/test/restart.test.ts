/**
 * `kill -9` of the gateway mid-run (a child process of this test): at the next start leftovers
 * settle as interrupted (gateway_restart), no status was lost, transcripts lost at most the
 * last second, and the next turn carries the one-time reminder.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type AgentRecord, NerveApiFile, NerveEventFrame, SessionInfo, type AgentTranscriptEvent } from '@collie/protocol';
import { startMessagesApi, tempDir, type Turn } from '@collie/testkit';
import { claudeEnv, startNerveProcess } from './harness';

const say = (text: string, durationMs = 0): Turn => ({ blocks: [{ type: 'text', text }], durationMs });
const bg = (description: string): Turn => ({ blocks: [{ type: 'tool_use', name: 'Agent', input: { description, prompt: description, run_in_background: true, subagent_type: 'general-purpose' } }] });

let token = '';
const json = async <T>(url: string, init?: RequestInit): Promise<T> => (await fetch(url, { ...init, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } })).json() as Promise<T>;

describe('nerve restart', () => {
  it('kill -9 mid-run: leftovers settle as interrupted (gateway_restart), no status lost', async () => {
    await using api = await startMessagesApi();
    await using dir = await tempDir('nerve-restart-');
    const env = await claudeEnv(api, dir.path);
    const config = join(dir.path, 'config.yaml');
    await writeFile(config, `listen:\n  port: 0\nstate_dir: ${join(dir.path, 'state')}\ncwd: ${join(dir.path, 'work')}\nagent:\n  subagents:\n    progress_summaries: false\n`);
    api.script({
      main: [() => bg('quick'), () => bg('slow'), () => say('Both started.')],
      subagent: [() => say('quick done', 200), () => say('slow done', 120_000)],
    });
    const first = await startNerveProcess(config, env);
    token = NerveApiFile.parse(JSON.parse(await readFile(join(dir.path, 'state', 'api.json'), 'utf8'))).token;
    const records = new Map<string, AgentRecord>();
    const ws = new WebSocket(`${first.url.replace('http', 'ws')}/api/events`, { headers: { authorization: `Bearer ${token}` } });
    const seen = new Promise<void>((resolve) => {
      ws.on('message', (data: Buffer) => {
        const f = NerveEventFrame.parse(JSON.parse(data.toString()));
        if (f.event.type === 'agent.updated') records.set(f.event.agent.agent_id, f.event.agent);
        const all = [...records.values()];
        if (all.some((r) => r.name === 'quick' && r.status === 'completed') && all.some((r) => r.name === 'slow' && r.status === 'running')) resolve();
      });
    });
    await new Promise((r) => ws.once('open', r));
    const s = SessionInfo.parse(await json(`${first.url}/api/sessions`, { method: 'POST', body: '{}' }));
    await json(`${first.url}/api/sessions/${s.session_id}/messages`, { method: 'POST', body: JSON.stringify({ text: 'start both' }) });
    await seen;
    // Past one write-behind period: what happened before it must be on disk.
    await new Promise((r) => setTimeout(r, 2_500));
    ws.close();
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = await startNerveProcess(config, env);
    // The credential outlives a restart: the same token still opens the API.
    expect(NerveApiFile.parse(JSON.parse(await readFile(join(dir.path, 'state', 'api.json'), 'utf8')))).toEqual({ url: second.url, token });
    try {
      const { agents } = await json<{ agents: AgentRecord[] }>(`${second.url}/api/sessions/${s.session_id}/agents`);
      const byName = Object.fromEntries(agents.map((a) => [a.name, a]));
      expect(byName.quick).toMatchObject({ status: 'completed' });
      expect(byName.slow).toMatchObject({ status: 'interrupted', reason: 'gateway_restart', attention: ['interrupted'] });
      const { events } = await json<{ events: AgentTranscriptEvent[] }>(`${second.url}/api/sessions/${s.session_id}/agents/${byName.quick!.agent_id}/transcript`);
      expect(events.some((e) => e.kind === 'text' && JSON.stringify(e.payload).includes('quick done'))).toBe(true);
      // The next turn carries the reminder once.
      api.script(() => say('Noted.'), () => say('Noted again.'));
      await json(`${second.url}/api/sessions/${s.session_id}/messages`, { method: 'POST', body: JSON.stringify({ text: 'what happened?' }) });
      const r1 = await api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes('what happened?'), 60_000);
      // The prompt the model saw (the testkit's `prompt` leaves system reminders out).
      const sent = JSON.stringify(r1.body);
      expect(sent).toContain('ended outside your control');
      expect(sent).toMatch(/slow \(agent, ag_[0-9a-f]{12}\): interrupted \(gateway_restart\)/);
      await json(`${second.url}/api/sessions/${s.session_id}/messages`, { method: 'POST', body: JSON.stringify({ text: 'and now?' }) });
      const r2 = await api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes('and now?'), 60_000);
      // Once: the second turn's own message carries no reminder.
      expect(r2.prompt).toBe('and now?');
      const last = (r2.body as { messages: Array<{ content: unknown }> }).messages.at(-1);
      expect(JSON.stringify(last)).not.toContain('ended outside your control');
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    }
  });
});
