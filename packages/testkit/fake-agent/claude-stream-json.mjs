#!/usr/bin/env node
/**
 * A scripted stand-in for the `claude` CLI's stream-json mode (`--input-format stream-json
 * --output-format stream-json`), for the Agent SDK's fast tests. It answers every control
 * request, and for each user message plays the next turn of the JSON script named by
 * FAKE_CLAUDE_SCRIPT: `{"turns": [{"frames": [...], "end": true|false, "ignoreInterrupt": bool}]}`.
 * Frames are SDK messages as the real CLI writes them; `"end": false` leaves the turn running
 * (no `result`), and `ignoreInterrupt` makes an interrupt end nothing, like a turn stuck in a tool.
 * A `stop_task` control request is answered, then (unless the script says `"stopTaskAnswers":
 * false`) followed by the task's `task_notification` with status `stopped`, as the CLI does.
 * `"stopTaskDelayMs": n` answers each stop_task n ms late; `"stopTaskSilent": true` never answers
 * one (a CLI stuck in a task's teardown).
 * FAKE_CLAUDE_LOG, when set, gets one JSON line per user message received: its text and whether
 * a turn was still running then (a queued message must never arrive during an earlier turn).
 * FAKE_CLAUDE_EVENTS, when set, gets one JSON line per stop_task received and answered and one
 * when the host closes it (`{"event": "stop_task" | "stop_task_answered" | "closed", "task_id"?,
 * "how"?: "stdin_end" | "SIGTERM", "at"}`), so a test can see what a host waited for before it
 * closed the CLI.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';

const script = JSON.parse(readFileSync(process.env.FAKE_CLAUDE_SCRIPT ?? '', 'utf8'));
const session = randomUUID();
let turn = 0;
let current = null;
const out = (o) => process.stdout.write(`${JSON.stringify({ session_id: session, ...o })}\n`);
const note = (event, more = {}) => {
  if (process.env.FAKE_CLAUDE_EVENTS) appendFileSync(process.env.FAKE_CLAUDE_EVENTS, `${JSON.stringify({ event, ...more, at: Date.now() })}\n`);
};
const result = () => out({ type: 'result', subtype: 'success', is_error: false, duration_ms: 1, duration_api_ms: 1, num_turns: 1, result: '', total_cost_usd: 0, usage: { input_tokens: 0, output_tokens: 0 }, modelUsage: {}, permission_denials: [], uuid: randomUUID() });

createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  const m = JSON.parse(line);
  if (m.type === 'control_request' && m.request?.subtype === 'stop_task') {
    const taskId = m.request.task_id;
    note('stop_task', { task_id: taskId });
    if (script.stopTaskSilent === true) return;
    setTimeout(() => {
      note('stop_task_answered', { task_id: taskId });
      out({ type: 'control_response', response: { subtype: 'success', request_id: m.request_id, response: {} } });
      if (script.stopTaskAnswers !== false) out({ type: 'system', subtype: 'task_notification', task_id: taskId, status: 'stopped', output_file: '', summary: 'Stopped', uuid: randomUUID() });
    }, script.stopTaskDelayMs ?? 0);
    return;
  }
  if (m.type === 'control_request') {
    const sub = m.request?.subtype;
    const response = sub === 'initialize' ? { commands: [], agents: [], output_style: 'default', available_output_styles: ['default'], models: [], account: {}, pid: process.pid } : {};
    out({ type: 'control_response', response: { subtype: 'success', request_id: m.request_id, response } });
    if (sub === 'interrupt' && current && !current.ignoreInterrupt) {
      current = null;
      result();
    }
    return;
  }
  if (m.type === 'user') {
    const content = m.message?.content;
    const text = typeof content === 'string' ? content : JSON.stringify(content);
    if (process.env.FAKE_CLAUDE_LOG) appendFileSync(process.env.FAKE_CLAUDE_LOG, `${JSON.stringify({ text, duringTurn: current !== null })}\n`);
    const t = script.turns[turn++] ?? { frames: [{ type: 'assistant', message: { id: `msg_${turn}`, role: 'assistant', model: 'fake', content: [{ type: 'text', text: 'ok' }] }, parent_tool_use_id: null }] };
    if (turn === 1) out({ type: 'system', subtype: 'init', cwd: process.cwd(), tools: ['Task', 'Bash'], mcp_servers: [], model: 'fake', permissionMode: 'default', slash_commands: [], apiKeySource: 'none', claude_code_version: 'fake', output_style: 'default', agents: [], skills: [], plugins: [], uuid: randomUUID() });
    current = t;
    for (const f of t.frames) out({ uuid: randomUUID(), ...f });
    if (t.end !== false) {
      current = null;
      result();
    }
  }
});
process.stdin.on('end', () => {
  note('closed', { how: 'stdin_end' });
  process.exit(0);
});
// The SDK's close ends stdin and may signal the process too.
process.on('SIGTERM', () => {
  note('closed', { how: 'SIGTERM' });
  process.exit(143);
});
