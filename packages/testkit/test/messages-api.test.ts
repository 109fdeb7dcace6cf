import { describe, expect, test } from 'vitest';
import { backgroundAgent, bashPermission, longTurn, plainReply, startMessagesApi, type MessagesApi } from '../src';
import { mainBody, sideBody, subagentBody } from './request-bodies';

/** Posts a Messages API body and returns the parsed SSE events. */
async function stream(api: MessagesApi, body: object): Promise<Array<{ type: string; [k: string]: unknown }>> {
  const res = await fetch(`${api.url}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-claude-code-session-id': 'session-1' },
    body: JSON.stringify({ ...body, stream: true }),
  });
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const [eventLine, dataLine] = frame.split('\n');
      const data = JSON.parse(dataLine!.replace(/^data: /, ''));
      expect(eventLine).toBe(`event: ${data.type}`);
      return data;
    });
}

/** The text the assistant said in a stream. */
function said(events: Array<{ type: string; [k: string]: unknown }>): string {
  return events
    .flatMap((e) => (e.type === 'content_block_delta' ? [(e.delta as { text?: string }).text ?? ''] : []))
    .join('');
}

describe('scripted Messages API', () => {
  test('streams a text turn in the documented event order', async () => {
    await using api = await startMessagesApi();
    api.script(plainReply('Hello from the scripted API, in a few pieces.'));
    const events = await stream(api, mainBody('hi'));
    const types = events.map((e) => e.type).filter((t) => t !== 'content_block_delta');
    expect(types).toEqual(['message_start', 'content_block_start', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(said(events)).toBe('Hello from the scripted API, in a few pieces.');
    expect(events.find((e) => e.type === 'message_delta')).toMatchObject({ delta: { stop_reason: 'end_turn' } });
  });

  test('streams a tool call as partial JSON that reassembles to its input', async () => {
    await using api = await startMessagesApi();
    api.script(bashPermission('echo "a fairly long command line to split" && ls -la'));
    const events = await stream(api, mainBody('run it'));
    const start = events.find((e) => e.type === 'content_block_start' && (e.content_block as { type: string }).type === 'tool_use');
    expect(start).toMatchObject({ index: 1, content_block: { name: 'Bash', input: {} } });
    const json = events
      .filter((e) => e.type === 'content_block_delta' && e.index === 1)
      .map((e) => (e.delta as { type: string; partial_json: string }).partial_json)
      .join('');
    expect(JSON.parse(json)).toMatchObject({ command: 'echo "a fairly long command line to split" && ls -la' });
    expect(events.find((e) => e.type === 'message_delta')).toMatchObject({ delta: { stop_reason: 'tool_use' } });

    // The closing turn reads the tool result it answers.
    const toolUseId = (start!.content_block as { id: string }).id;
    const closing = await stream(api, mainBody([{ type: 'tool_result', tool_use_id: toolUseId, content: 'file-a\nfile-b' }]));
    expect(said(closing)).toBe('The command finished: file-a');
    expect(api.requests[1]!.toolResults).toEqual([{ toolUseId, isError: false, text: 'file-a\nfile-b' }]);
  });

  test('records requests with the decoded user messages and who sent them', async () => {
    await using api = await startMessagesApi();
    await stream(api, mainBody('first prompt'));
    await stream(api, sideBody());
    await stream(api, subagentBody('sub task'));
    expect(api.requests.map((r) => [r.kind, r.prompt])).toEqual([
      ['main', 'first prompt'],
      ['side', '<conversation>\nfirst prompt\n</conversation>'],
      ['subagent', 'sub task'],
    ]);
    expect(api.requests[0]!.sessionId).toBe('session-1');
    expect(api.requests[0]!.scripted).toBe(false);
    await expect(api.waitForRequest((r) => r.kind === 'subagent')).resolves.toMatchObject({ seq: 2 });
  });

  test('the prompt leaves out what the CLI adds: reminders and local command records', async () => {
    await using api = await startMessagesApi();
    await stream(api, mainBody([
      { type: 'text', text: '<system-reminder>\nremember\n</system-reminder>\n' },
      { type: 'text', text: '<command-name>/rename</command-name>\n  <command-message>rename</command-message>\n  <command-args></command-args>\n' },
      { type: 'text', text: '<local-command-stdout>Renamed.</local-command-stdout>\n' },
      { type: 'text', text: 'take your time' },
    ]));
    expect(api.requests[0]!.prompt).toBe('take your time');
  });

  test('side calls do not use up scripted turns, and structured ones get JSON of their schema', async () => {
    await using api = await startMessagesApi();
    api.script(plainReply('main answer'));
    const res = await fetch(`${api.url}/v1/messages`, { method: 'POST', body: JSON.stringify({ ...sideBody(), stream: false }) });
    const message = (await res.json()) as { content: Array<{ text: string }>; stop_reason: string };
    expect(JSON.parse(message.content[0]!.text)).toEqual({ name: 'scripted-session' });
    expect(api.pending()).toBe(1);
  });

  test('a scenario scripts its sub-agent separately from the main conversation', async () => {
    await using api = await startMessagesApi();
    api.script(backgroundAgent('count files', { agentMs: 0, agentText: 'Counted 3 files.' }));
    const sub = await stream(api, subagentBody('count files'));
    expect(said(sub)).toBe('Counted 3 files.');
    const main = await stream(api, mainBody('go'));
    const tool = main.find((e) => e.type === 'content_block_start' && (e.content_block as { type: string }).type === 'tool_use');
    expect(tool).toMatchObject({ content_block: { name: 'Agent' } });
    const input = main
      .filter((e) => e.type === 'content_block_delta' && e.index === 1)
      .map((e) => (e.delta as { partial_json: string }).partial_json)
      .join('');
    expect(JSON.parse(input)).toMatchObject({ prompt: 'count files', run_in_background: true });
  });

  test('auto mode gets a verdict on every tool call', async () => {
    await using api = await startMessagesApi();
    api.script(bashPermission('ls'));
    const events = await stream(api, { ...mainBody('go'), safeguards: [{ type: 'dangerous_tool_use', classifier_context: {} }] });
    const delta = events.find((e) => e.type === 'message_delta');
    expect((delta?.delta as { safeguard_results: unknown }).safeguard_results).toMatchObject([{ type: 'dangerous_tool_use', status: { type: 'available' } }]);
  });

  test('a long turn pings while it streams and stops when the client hangs up', async () => {
    await using api = await startMessagesApi();
    api.script(longTurn(60_000, 'slow'));
    const ctl = new AbortController();
    const res = await fetch(`${api.url}/v1/messages?beta=true`, {
      method: 'POST',
      body: JSON.stringify({ ...mainBody('wait'), stream: true }),
      signal: ctl.signal,
    });
    const reader = res.body!.getReader();
    let seen = '';
    while (!seen.includes('event: ping')) seen += new TextDecoder().decode((await reader.read()).value);
    expect(seen).toContain('event: message_start');
    ctl.abort();
    await expect.poll(() => api.requests[0]!.aborted).toBe(true);
  });

  test('answers count_tokens, probes and unknown paths', async () => {
    await using api = await startMessagesApi();
    const count = await fetch(`${api.url}/v1/messages/count_tokens?beta=true`, { method: 'POST', body: JSON.stringify(mainBody('x')) });
    expect(((await count.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(0);
    expect((await fetch(api.url, { method: 'HEAD' })).status).toBe(200);
    expect(await (await fetch(`${api.url}/v1/models`)).json()).toEqual({});
    const missing = await fetch(`${api.url}/v1/other`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    expect(api.requests.map((r) => r.kind)).toEqual(['count_tokens', 'probe', 'probe', 'side']);
  });

  test('keepWhole: older requests keep what was decoded of them, not their body or history', async () => {
    await using api = await startMessagesApi({ keepWhole: 2 });
    const talk = (n: number) => {
      const turns = Array.from({ length: n }, (_, i) => [{ role: 'user', content: [{ type: 'text', text: `say ${i}` }] }, { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }]).flat();
      return { ...(mainBody('x') as object), messages: turns.slice(0, -1) };
    };
    for (let n = 1; n <= 4; n++) await stream(api, talk(n));
    expect(api.requests.map((r) => [r.kind, r.prompt, r.userMessages.length, r.body === null])).toEqual([
      ['main', 'say 0', 1, true],
      ['main', 'say 1', 1, true],
      ['main', 'say 2', 3, false],
      ['main', 'say 3', 4, false],
    ]);
    expect(api.requests[0]!.userMessages).toEqual(['say 0']);
    expect(api.requests[1]!.userMessages).toEqual(['say 1']);
    expect(api.requests[0]!.headers).toEqual({});
    expect(api.requests[3]!.headers['x-claude-code-session-id']).toBe('session-1');
  });

  test('a script that throws is answered with a text naming the error', async () => {
    await using api = await startMessagesApi();
    api.script(() => {
      throw new Error('boom');
    });
    const events = await stream(api, mainBody('x'));
    expect(said(events)).toBe('Scripted API error: boom');
    expect(api.errors.map((e) => e.message)).toEqual(['boom']);
  });
});
