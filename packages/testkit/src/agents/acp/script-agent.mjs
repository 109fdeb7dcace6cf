// A scripted ACP agent for tests: a real agent program (the ACP SDK's agent side, over stdio)
// whose every prompt is a command word. It sends what real agents send (chunks, thoughts, a plan,
// tool calls with diffs, permission requests, elicitations, modes, loadable sessions) and what
// hostile or broken ones send (garbage lines, oversized and control-laden text, unknown kinds,
// a crash, a hang, a hang deaf to session/cancel, requests never answered). Run: node script-agent.mjs. Its stderr says what it did, for failed tests.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

const sessions = new Map();
// SCRIPT_AGENT_PLAIN=1: an agent that keeps no sessions (no loadSession, no session/list).
const plain = process.env.SCRIPT_AGENT_PLAIN === '1';
// SCRIPT_AGENT_HANG=session/new,session/load: those requests are never answered.
const hangs = new Set((process.env.SCRIPT_AGENT_HANG ?? '').split(',').filter(Boolean));
// SCRIPT_AGENT_BROKEN_IF=<file>: while that file exists, the agent dies as it starts (exit 2).
if (process.env.SCRIPT_AGENT_BROKEN_IF && existsSync(process.env.SCRIPT_AGENT_BROKEN_IF)) {
  process.stderr.write('script-agent: broken on purpose\n');
  process.exit(2);
}
const say = (line) => process.stderr.write(`script-agent: ${line}\n`);
const modes = (current = 'ask') => ({
  currentModeId: current,
  availableModes: [
    { id: 'ask', name: 'Ask first' },
    { id: 'code', name: 'Code' },
  ],
});
const models = (current = 'fast') => [
  { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: current, options: [{ value: 'fast', name: 'Fast model' }, { value: 'deep', name: 'Deep model' }] },
];
/** Raw bytes straight to stdout, between the SDK's own whole lines. */
const raw = (text) => process.stdout.write(text);

async function turn(client, sessionId, text, signal) {
  const update = (u) => client.notify(acp.methods.client.session.update, { sessionId, update: u });
  const chunk = (t) => update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t } });
  const [word, ...rest] = text.trim().split(/\s+/u);
  switch (word) {
    case 'silent':
      // A turn that ends with not one update (what the Claude Code adapter 0.23 does after a Stop).
      return 'end_turn';
    case 'model':
      await chunk(`Model: ${sessions.get(sessionId)?.model}`);
      return 'end_turn';
    case 'hello':
      await update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'The person says hello.' } });
      for (const piece of ['Hello ', 'from ', 'the ', 'script ', 'agent.']) await chunk(piece);
      return 'end_turn';
    case 'edit': {
      await update({ sessionUpdate: 'plan', entries: [
        { content: 'Read the notes', priority: 'high', status: 'completed' },
        { content: 'Write the change', priority: 'high', status: 'in_progress' },
        { content: 'Tidy up', priority: 'low', status: 'pending' },
      ] });
      const toolCallId = `call-${randomBytes(3).toString('hex')}`;
      const diff = { type: 'diff', path: `${sessions.get(sessionId).cwd}/notes.md`, oldText: 'one\ntwo\n', newText: 'one\n2\n' };
      await update({ sessionUpdate: 'tool_call', toolCallId, title: 'Edit notes.md', kind: 'edit', status: 'pending', content: [diff] });
      const r = await client.request(acp.methods.client.session.requestPermission, {
        sessionId,
        toolCall: { toolCallId, title: 'Edit notes.md', kind: 'edit', content: [diff] },
        options: [
          { optionId: 'yes', name: 'Allow this edit', kind: 'allow_once' },
          { optionId: 'always', name: 'Allow edits to notes.md', kind: 'allow_always' },
          { optionId: 'no', name: 'Reject', kind: 'reject_once' },
          { optionId: 'never', name: 'Never', kind: 'reject_always' },
        ],
      }, { signal });
      const ok = r.outcome.outcome === 'selected' && (r.outcome.optionId === 'yes' || r.outcome.optionId === 'always');
      say(`permission: ${JSON.stringify(r.outcome)}`);
      if (r.outcome.outcome === 'cancelled') return 'cancelled';
      await update({ sessionUpdate: 'tool_call_update', toolCallId, status: ok ? 'completed' : 'failed', content: [{ type: 'content', content: { type: 'text', text: ok ? 'edited' : 'not edited' } }] });
      await update({ sessionUpdate: 'plan', entries: [
        { content: 'Read the notes', priority: 'high', status: 'completed' },
        { content: 'Write the change', priority: 'high', status: 'completed' },
        { content: 'Tidy up', priority: 'low', status: 'in_progress' },
      ] });
      await chunk(ok ? `Edited (${r.outcome.optionId}).` : 'Left it.');
      return 'end_turn';
    }
    case 'askfirst': {
      // Asks before it announces the tool call (as the Codex adapter does), then announces it.
      const toolCallId = `call-${randomBytes(3).toString('hex')}`;
      const r = await client.request(acp.methods.client.session.requestPermission, {
        sessionId,
        toolCall: { toolCallId, title: 'Run make', kind: 'execute', rawInput: { command: 'make' }, content: [{ type: 'content', content: { type: 'text', text: 'Build the project' } }] },
        options: [
          { optionId: 'yes', name: 'Run it', kind: 'allow_once' },
          { optionId: 'no', name: 'Do not', kind: 'reject_once' },
        ],
      }, { signal });
      const ok = r.outcome.outcome === 'selected' && r.outcome.optionId === 'yes';
      await update({ sessionUpdate: 'tool_call', toolCallId, title: 'Run make', kind: 'execute', status: ok ? 'in_progress' : 'failed' });
      if (ok) await update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'built' } }] });
      await chunk(ok ? 'Made.' : 'Not made.');
      return 'end_turn';
    }
    case 'elicit': {
      const r = await client.request(acp.methods.client.elicitation.create, {
        sessionId, mode: 'form', message: 'Who is it for?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' }, urgent: { type: 'boolean', title: 'Urgent' }, size: { type: 'string', title: 'Size', enum: ['S', 'M', 'L'] }, count: { type: 'integer', title: 'Count' } }, required: ['name'] },
      });
      await chunk(`Elicited: ${JSON.stringify(r)}`);
      return 'end_turn';
    }
    case 'elicit-url': {
      const r = await client.request(acp.methods.client.elicitation.create, { sessionId, mode: 'url', message: 'Sign in to the service', url: 'https://example.com/sign-in?code=1', elicitationId: 'el-1' });
      await chunk(`Elicited: ${JSON.stringify(r)}`);
      return 'end_turn';
    }
    case 'term': {
      // A terminal in the folder named (`pwd` there): the client runs it inside the session's folder only.
      try {
        const { terminalId } = await client.request(acp.methods.client.terminal.create, { sessionId, command: 'pwd', cwd: rest.join(' ') });
        await client.request(acp.methods.client.terminal.waitForExit, { sessionId, terminalId });
        const out = await client.request(acp.methods.client.terminal.output, { sessionId, terminalId });
        await client.request(acp.methods.client.terminal.release, { sessionId, terminalId });
        await chunk(`Terminal: ${out.output.trim()} (exit ${out.exitStatus?.exitCode})`);
      } catch (err) {
        await chunk(`Refused: ${err.message}${err.data ? ` ${JSON.stringify(err.data)}` : ''}`);
      }
      return 'end_turn';
    }
    case 'fail': {
      // A tool call the agent itself reports failed, with its output.
      const toolCallId = `call-${randomBytes(3).toString('hex')}`;
      await update({ sessionUpdate: 'tool_call', toolCallId, title: 'Run the tests', kind: 'execute', status: 'in_progress' });
      await update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', content: [{ type: 'content', content: { type: 'text', text: '2 tests failed' } }] });
      await chunk('The tests failed.');
      return 'end_turn';
    }
    case 'write': {
      try {
        await client.request(acp.methods.client.fs.writeTextFile, { sessionId, path: rest[0] ?? '', content: rest.slice(1).join(' ') });
        await chunk(`Wrote: ${rest[0]}`);
      } catch (err) {
        await chunk(`Refused: ${err.message}${err.data ? ` ${JSON.stringify(err.data)}` : ''}`);
      }
      return 'end_turn';
    }
    case 'read': {
      try {
        const r = await client.request(acp.methods.client.fs.readTextFile, { sessionId, path: rest.join(' ') });
        await chunk(`Read: ${r.content}`);
      } catch (err) {
        await chunk(`Refused: ${err.message}${err.data ? ` ${JSON.stringify(err.data)}` : ''}`);
      }
      return 'end_turn';
    }
    case 'slow':
      for (let i = 0; i < 600 && !signal.aborted; i++) {
        await chunk(`${i} `);
        await new Promise((r) => setTimeout(r, 100));
      }
      return signal.aborted ? 'cancelled' : 'end_turn';
    case 'hang':
      await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
      return 'cancelled';
    case 'deaf':
      // Hangs and does not hear session/cancel either: its prompt is never answered.
      return new Promise(() => undefined);
    case 'crash':
      await chunk('About to crash.');
      setTimeout(() => process.exit(3), 50);
      return new Promise(() => undefined);
    case 'fuzz': {
      raw('this is not json\n');
      raw('[1,2,3]\n');
      raw('{"jsonrpc":"2.0","id":999999,"result":{}}\n');
      raw(`${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: 'tool_call', title: 42 } } })}\n`);
      raw(`${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'nobody', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'lost' } } } })}\n`);
      raw(`${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: 'from_the_future', x: 1 } } })}\n`);
      raw(`${JSON.stringify({ jsonrpc: '2.0', method: 'no/such_method', params: {} })}\n`);
      await chunk('<script>alert(1)</script><img src=x onerror=alert(2)>\u202Egnp.exe\u0007\u001b[31m');
      await chunk('x'.repeat(150_000));
      await update({ sessionUpdate: 'plan', entries: Array.from({ length: 80 }, (_, i) => ({ content: `step ${i} ${'y'.repeat(300)}`, priority: 'low', status: 'pending' })) });
      await update({ sessionUpdate: 'tool_call', toolCallId: 'z'.repeat(500), title: `t${'\u0000'.repeat(3)}${'w'.repeat(5000)}`, kind: 'execute', status: 'in_progress' });
      const r = await client.request(acp.methods.client.session.requestPermission, {
        sessionId,
        toolCall: { toolCallId: 'fuzz-call', title: `Run ${'q'.repeat(3000)}` },
        options: Array.from({ length: 10 }, (_, i) => ({ optionId: `opt-${i}-${'k'.repeat(300)}`, name: `Option ${i} ${'n'.repeat(400)}`, kind: i % 2 ? 'reject_once' : 'allow_once' })),
      }, { signal });
      await chunk(`Fuzz answer: ${JSON.stringify(r.outcome).slice(0, 80)}`);
      return 'end_turn';
    }
    case 'bench': {
      // Permission requests one after another, each stamped with its send time (epoch ms), for bench/acp.mjs.
      for (let i = 0; i < Number(rest[0] ?? 100) && !signal.aborted; i++) {
        const at = (performance.timeOrigin + performance.now()).toFixed(3);
        await client.request(acp.methods.client.session.requestPermission, {
          sessionId, toolCall: { toolCallId: `bench-${i}`, title: `bench ${i} at ${at}` },
          options: [{ optionId: 'yes', name: 'Yes', kind: 'allow_once' }],
        }, { signal });
      }
      return 'end_turn';
    }
    case 'oversize':
      raw(`${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'o'.repeat(5 * 1024 * 1024) } } } })}\n`);
      return new Promise(() => undefined);
    default:
      await chunk(`You said: ${text}`);
      return 'end_turn';
  }
}

const cancels = new Map();
const app = acp
  .agent({ name: 'script-agent' })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: plain ? {} : { loadSession: true, sessionCapabilities: { list: {} } },
    agentInfo: { name: 'script-agent', version: '1.0.0' },
  }))
  .onRequest(acp.methods.agent.session.new, ({ params }) => {
    if (hangs.has('session/new')) return new Promise(() => undefined);
    const sessionId = `s-${randomBytes(4).toString('hex')}`;
    sessions.set(sessionId, { cwd: params.cwd, lines: [], mode: 'ask', model: 'fast' });
    return { sessionId, modes: modes(), configOptions: models() };
  })
  .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
    if (hangs.has('session/load')) return new Promise(() => undefined);
    const s = sessions.get(params.sessionId) ?? { cwd: params.cwd, lines: [], mode: 'ask' };
    sessions.set(params.sessionId, s);
    for (const line of s.lines) await client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: line } } });
    return { modes: modes(s.mode), configOptions: models(s.model) };
  })
  .onRequest(acp.methods.agent.session.list, () => ({ sessions: [...sessions.entries()].map(([sessionId, s]) => ({ sessionId, cwd: s.cwd, title: s.lines[0] ?? null })) }))
  .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
    const s = sessions.get(params.sessionId);
    if (s) s.mode = params.modeId;
    say(`mode ${params.modeId}`);
    return {};
  })
  .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => {
    const s = sessions.get(params.sessionId);
    if (!s) throw acp.RequestError.resourceNotFound(params.sessionId);
    if (params.configId !== 'model' || !['fast', 'deep'].includes(params.value)) throw acp.RequestError.invalidParams({ value: params.value });
    s.model = params.value;
    say(`model ${params.value}`);
    return { configOptions: models(s.model) };
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const text = params.prompt.map((b) => (b.type === 'text' ? b.text : '')).join('');
    say(`prompt ${text.slice(0, 60)}`);
    const s = sessions.get(params.sessionId);
    if (!s) throw acp.RequestError.resourceNotFound(params.sessionId);
    s.lines.push(text);
    const ac = new AbortController();
    cancels.set(params.sessionId, ac);
    try {
      return { stopReason: await turn(client, params.sessionId, text, ac.signal) };
    } finally {
      cancels.delete(params.sessionId);
    }
  })
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    say(`cancel ${params.sessionId}`);
    cancels.get(params.sessionId)?.abort();
  });

app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
say('ready');
