import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { agentLongTurn, agentReply, agentShell, startGeminiApi, startResponsesApi } from '../src';
import { geminiWire } from '../src/agents/gemini/gemini-wire';
import { responsesWire } from '../src/agents/codex/responses-wire';

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A Codex turn request as 0.171 sends it: developer text, a context block, the prompt, the tools. */
const codexBody = (prompt: string, extra: unknown[] = []) => ({
  model: 'gpt-5.1-codex',
  stream: true,
  tools: [{ type: 'function', name: 'exec_command' }],
  input: [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'You are a coding agent.' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/x</cwd>\n</environment_context>' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] },
    ...extra,
  ],
});

/** SSE `event:`/`data:` frames as parsed objects. */
const frames = (text: string) =>
  text
    .split('\n\n')
    .filter((f) => f.trim() !== '')
    .map((f) => JSON.parse(f.split('\n').find((l) => l.startsWith('data: '))!.slice(6)) as { type: string; [k: string]: unknown });

describe('the scripted Responses API (Codex)', () => {
  test('a text turn streams deltas between created and completed; the request is recorded without context blocks', async () => {
    await using api = await startResponsesApi();
    api.script(agentReply('Hello there, phone.'));
    const res = await post(`${api.url}/v1/responses`, codexBody('say hello'));
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = frames(await res.text());
    expect(events[0]?.type).toBe('response.created');
    expect(events.at(-1)?.type).toBe('response.completed');
    expect(events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('')).toBe('Hello there, phone.');
    const req = api.requests[0]!;
    expect(req).toMatchObject({ kind: 'main', prompt: 'say hello', userMessages: ['say hello'], scripted: true, model: 'gpt-5.1-codex' });
  });

  test('a shell call asks to leave the sandbox; its output comes back in the next request', async () => {
    await using api = await startResponsesApi();
    api.script(...agentShell('rm -rf build', { reason: 'Clean up' }));
    const events = frames(await (await post(`${api.url}/v1/responses`, codexBody('clean'))).text());
    const call = events.find((e) => e.type === 'response.output_item.done')?.item as { name: string; arguments: string; call_id: string };
    expect(call.name).toBe('exec_command');
    expect(JSON.parse(call.arguments)).toEqual({ cmd: 'rm -rf build', sandbox_permissions: 'require_escalated', justification: 'Clean up' });
    const next = await post(`${api.url}/v1/responses`, codexBody('clean', [{ type: 'function_call_output', call_id: call.call_id, output: 'Process exited with code 0' }]));
    expect(frames(await next.text()).filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('')).toBe('The command finished.');
    expect(api.requests[1]?.toolOutputs).toEqual(['Process exited with code 0']);
  });

  test('the title call (no tools) is a side call and leaves the queue alone; a slow turn takes its time', async () => {
    await using api = await startResponsesApi();
    api.script(agentLongTurn(600, 'one two three'));
    await (await post(`${api.url}/v1/responses`, { ...codexBody('title please'), tools: [] })).text();
    expect(api.requests[0]?.kind).toBe('side');
    expect(api.pending()).toBe(1);
    const t0 = Date.now();
    await (await post(`${api.url}/v1/responses`, codexBody('go slowly'))).text();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(500);
  });
});

describe('the scripted Gemini API (Gemini CLI)', () => {
  const geminiBody = (prompt: string, extra: unknown[] = []) => ({
    contents: [{ role: 'user', parts: [{ text: '<session_context>\nThis is the Gemini CLI.\n</session_context>' }, { text: prompt }] }, ...extra],
    tools: [{ functionDeclarations: [{ name: 'run_shell_command' }] }],
  });
  const chunks = (text: string) => text.split('\r\n\r\n').filter((f) => f.startsWith('data: ')).map((f) => JSON.parse(f.slice(6)) as { candidates: Array<{ content: { parts: Array<Record<string, unknown>> }; finishReason?: string }> });

  test('a text turn streams chunks, the last one finished; the router gets its JSON choice', async () => {
    await using api = await startGeminiApi();
    api.script(agentReply('Hello there.'));
    const router = (await (await post(`${api.url}/v1beta/models/gemini-3.5-flash-lite:generateContent`, geminiBody('hi'))).json()) as { candidates: Array<{ content: { parts: Array<{ text: string }> } }> };
    expect(JSON.parse(router.candidates[0]!.content.parts[0]!.text)).toMatchObject({ model_choice: 'flash', next_speaker: 'user' });
    const res = await post(`${api.url}/v1beta/models/gemini-3.1-pro-preview:streamGenerateContent?alt=sse`, geminiBody('hi'));
    const cs = chunks(await res.text());
    expect(cs.map((c) => c.candidates[0]?.content.parts[0]?.text).join('')).toBe('Hello there.');
    expect(cs.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
    expect(api.requests.map((r) => r.kind)).toEqual(['side', 'main']);
    expect(api.requests[1]).toMatchObject({ prompt: 'hi', userMessages: ['hi'], model: 'gemini-3.1-pro-preview' });
  });

  test('a shell call is one run_shell_command call; its functionResponse is recorded', async () => {
    await using api = await startGeminiApi();
    api.script(...agentShell('rm -rf build'));
    const url = `${api.url}/v1beta/models/m:streamGenerateContent?alt=sse`;
    const cs = chunks(await (await post(url, geminiBody('clean'))).text());
    expect(cs.at(-1)?.candidates[0]?.content.parts[0]).toEqual({ functionCall: { name: 'run_shell_command', args: { command: 'rm -rf build', description: 'Run the scripted command' } } });
    const answer = [{ role: 'model', parts: [{ functionCall: {} }] }, { role: 'user', parts: [{ functionResponse: { name: 'run_shell_command', response: { output: 'Output: (empty)' } } }] }];
    await (await post(url, geminiBody('clean', answer))).text();
    expect(api.requests[1]?.toolOutputs).toEqual(['{"output":"Output: (empty)"}']);
  });
});

describe('the wires decode any request body without a throw', () => {
  test.each([
    ['Responses', responsesWire, '/v1/responses'],
    ['Gemini', geminiWire, '/v1beta/models/m:streamGenerateContent'],
  ] as const)('%s', (_name, wire, path) => {
    fc.assert(
      fc.property(fc.constantFrom('GET', 'POST'), fc.jsonValue(), (method, body) => {
        const d = wire.decode(method, path, body);
        expect(['main', 'side', 'probe']).toContain(d.kind);
        expect(d.userMessages.every((m) => typeof m === 'string')).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
