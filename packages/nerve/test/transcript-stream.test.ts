/**
 * An agent's transcript lines streamed as they land: a client of `/api/events` subscribes to up
 * to 8 agents (`subscribe_transcripts`) and gets each of their lines (`agent.transcript`), capped
 * like the stored ones and equal to what the transcript route reads later; other agents' lines
 * never reach it. A real Nerve (startNerve) with the real Agent SDK against the testkit's scripted
 * stream-json CLI, a real WebSocket.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AgentListAnswer, NerveApiFile, NerveEventFrame, NerveSocketAnswer, SessionInfo, TranscriptAnswer, type AgentTranscriptEvent } from '@collie/protocol';
import { tempDir } from '@collie/testkit';
import { startNerve } from '../src/nerve';
import { assistant, FAKE, until } from './fast-kit';

const agentCall = (id: string, description: string) => assistant([{ type: 'tool_use', id, name: 'Agent', input: { description, prompt: description, run_in_background: true } }]);
const started = (task: string, toolUseId: string) => ({ type: 'system', subtype: 'task_started', task_id: task, tool_use_id: toolUseId, description: task, task_type: 'local_agent', is_backgrounded: true });
const says = (parent: string, call: string, text: string) => ({ type: 'assistant', message: { id: call, role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'text', text }], usage: { input_tokens: 10, output_tokens: 5 } }, parent_tool_use_id: parent });
const reads = (parent: string, id: string, file: string) => ({ type: 'assistant', message: { id: `msg_${id}`, role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: file } }] }, parent_tool_use_id: parent });
const got = (parent: string, id: string, text: string) => ({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] }, parent_tool_use_id: parent });

describe('nerve transcript lines on the event socket', () => {
  it('streams a subscribed agent’s lines as they land, capped like the stored ones, and no one else’s', async () => {
    await using dir = await tempDir('nerve-transcript-');
    const script = join(dir.path, 'script.json');
    await writeFile(
      script,
      JSON.stringify({
        turns: [
          { frames: [agentCall('toolu_w', 'Watched'), started('task_w', 'toolu_w'), agentCall('toolu_u', 'Unwatched'), started('task_u', 'toolu_u')] },
          {
            frames: [
              says('toolu_w', 'msg_w1', 'Line one.'),
              says('toolu_u', 'msg_u1', 'Not for this client.'),
              reads('toolu_w', 'toolu_r1', '/big.txt'),
              got('toolu_w', 'toolu_r1', 'é'.repeat(1_000)),
              says('toolu_w', 'msg_w2', 'Line two.'),
            ],
          },
        ],
      }),
    );
    const config = join(dir.path, 'config.yaml');
    await writeFile(config, `listen:\n  port: 0\ncwd: ${dir.path}\nclaude_path: ${FAKE}\nenv:\n  FAKE_CLAUDE_SCRIPT: ${script}\nagent:\n  subagents:\n    progress_summaries: false\n    transcript_item_max_bytes: 256\n`);
    const nerve = await startNerve({ configFile: config, defaultStateDir: join(dir.path, 'state') });
    try {
      const { token } = NerveApiFile.parse(JSON.parse(await readFile(nerve.apiFile, 'utf8')));
      const api = async (path: string, body?: unknown) =>
        (await fetch(`${nerve.url}/api${path}`, { method: body === undefined ? 'GET' : 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })).json();
      const ws = new WebSocket(`${nerve.url.replace('http', 'ws')}/api/events`, { headers: { authorization: `Bearer ${token}` } });
      const lines: AgentTranscriptEvent[] = [];
      const answers: NerveSocketAnswer[] = [];
      ws.on('message', (data: Buffer) => {
        const raw: unknown = JSON.parse(data.toString());
        const frame = NerveEventFrame.safeParse(raw);
        if (frame.success) {
          if (frame.data.event.type === 'agent.transcript') lines.push(frame.data.event.line);
        } else answers.push(NerveSocketAnswer.parse(raw));
      });
      await new Promise((r) => ws.once('open', r));
      const s = SessionInfo.parse(await api('/sessions', {}));
      await api(`/sessions/${s.session_id}/messages`, { text: 'start two agents' });
      const agents = async () => AgentListAnswer.parse(await api(`/sessions/${s.session_id}/agents`)).agents;
      await until(async () => (await agents()).filter((a) => a.status === 'running').length === 2, 'two agents running');
      const watched = (await agents()).find((a) => a.name === 'Watched')!;
      const unwatched = (await agents()).find((a) => a.name === 'Unwatched')!;

      // Bad commands are answered with what is wrong; the socket stays.
      ws.send('not json');
      ws.send(JSON.stringify({ type: 'subscribe_transcripts', agent_ids: Array.from({ length: 9 }, (_, i) => `ag_${String(i).padStart(12, '0')}`) }));
      ws.send(JSON.stringify({ type: 'subscribe_transcripts', agent_ids: ['nope'] }));
      ws.send(JSON.stringify({ type: 'subscribe_transcripts', agent_ids: [watched.agent_id] }));
      await until(() => answers.length === 4, 'four answers');
      expect(answers).toEqual([
        { error: { code: 'bad_request', message: 'nerve: a socket command is JSON' } },
        { error: { code: 'bad_request', message: "nerve: agent_ids: at most 8 agents' transcripts at once" } },
        { error: { code: 'bad_request', message: 'nerve: agent_ids.0: an agent id is ag_ followed by 12 hex digits' } },
        { subscribed: [watched.agent_id] },
      ]);

      await api(`/sessions/${s.session_id}/messages`, { text: 'keep going' });
      await until(() => lines.some((l) => l.payload.text === 'Line two.'), "the watched agent's last line");
      expect(lines.every((l) => l.agent_id === watched.agent_id)).toBe(true);
      expect(lines.map((l) => l.kind)).toEqual(['text', 'tool_call', 'tool_result', 'text']);
      // Capped like the stored line: the same bytes the transcript route reads.
      expect(lines[2]!.payload).toMatchObject({ truncated: true });
      expect(String(lines[2]!.payload.text)).toMatch(/… \[1744 more bytes not kept\]$/);
      const stored = TranscriptAnswer.parse(await api(`/sessions/${s.session_id}/agents/${watched.agent_id}/transcript`)).events;
      expect(stored.filter((e) => e.kind !== 'status')).toEqual(lines);
      // The other agent's lines were stored, never sent here.
      const other = TranscriptAnswer.parse(await api(`/sessions/${s.session_id}/agents/${unwatched.agent_id}/transcript`)).events;
      expect(other.map((e) => e.payload.text)).toEqual(['Not for this client.']);
      ws.close();
    } finally {
      await nerve.close();
    }
  });
});
