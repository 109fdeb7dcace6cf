import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DurableItem, WireItem } from '@collie/protocol';
import { ChatLog } from './chat-log';
import { parseClaudeLine } from './claude-lines';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCodexLine } from './codex-lines';
import type { Entry, LineParser } from './entries';
import { parseGeminiLine } from './gemini-lines';
import { parsePiLine } from './pi-lines';

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constantFrom('<script>alert(1)</script>', '[x](javascript:alert(1))', '\u0000\u001b[31mred\u202e', '<command-name>/clear</command-name>', '<local-command-stdout>ok</local-command-stdout>', '<task-notification><summary>done</summary></task-notification>'),
);
const block = fc.oneof(
  fc.record({ type: fc.constant('text'), text: hostile }),
  fc.record({ type: fc.constant('thinking'), thinking: hostile }),
  fc.record({ type: fc.constant('tool_use'), id: fc.string(), name: hostile, input: fc.jsonValue() }),
  fc.record({ type: fc.constant('tool_result'), tool_use_id: fc.string(), content: fc.oneof(hostile, fc.array(fc.record({ type: fc.constantFrom('text', 'image'), text: hostile }))), is_error: fc.boolean() }),
  fc.record({ type: fc.constantFrom('image', 'document', 'other'), source: fc.jsonValue() }),
  fc.jsonValue(),
);
/** Lines shaped like Claude Code's, with every field free to be wrong. */
const claudeLine = fc.record(
  {
    type: fc.constantFrom('user', 'assistant', 'system', 'summary', 'attachment', 'x'),
    sessionId: fc.oneof(fc.uuid(), fc.jsonValue()),
    timestamp: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.jsonValue()),
    isSidechain: fc.oneof(fc.boolean(), fc.jsonValue()),
    isMeta: fc.boolean(),
    // Names every object has (constructor, toString) too: a table lookup must not find Object's own.
    subtype: fc.oneof(fc.constantFrom('compact_boundary', 'local_command', 'api_error', 'constructor', 'toString', '__proto__', 'hasOwnProperty'), fc.string()),
    content: hostile,
    message: fc.oneof(fc.record({ role: fc.string(), content: fc.oneof(hostile, fc.array(block, { maxLength: 5 })) }), fc.jsonValue()),
  },
  { requiredKeys: ['type'] },
);
/** Lines shaped like a Codex rollout's. */
const codexPayload = fc.oneof(
  fc.record({ type: fc.constant('message'), role: fc.constantFrom('user', 'assistant', 'developer'), content: fc.array(fc.record({ type: fc.constantFrom('input_text', 'output_text', 'input_image'), text: hostile }), { maxLength: 3 }) }),
  fc.record({ type: fc.constant('reasoning'), summary: fc.array(fc.record({ type: fc.constant('summary_text'), text: hostile })) }),
  fc.record({ type: fc.constant('function_call'), name: hostile, arguments: fc.oneof(hostile, fc.jsonValue().map((v) => JSON.stringify(v))), call_id: fc.string() }),
  fc.record({ type: fc.constantFrom('function_call_output', 'custom_tool_call_output'), call_id: fc.string(), output: fc.oneof(hostile, fc.jsonValue()) }),
  fc.record({ type: fc.constantFrom('custom_tool_call', 'local_shell_call', 'web_search_call'), name: hostile, input: hostile, call_id: fc.string(), action: fc.jsonValue() }),
  fc.record({ id: fc.uuid(), type: fc.constant('turn_aborted') }),
  fc.jsonValue(),
);
const codexLine = fc.record({ timestamp: fc.string(), type: fc.constantFrom('session_meta', 'response_item', 'event_msg', 'compacted', 'turn_context'), payload: codexPayload });

/** Records shaped like Gemini CLI's session file: metadata, messages (often the same id again), `$set`, `$rewindTo`. */
const geminiId = fc.constantFrom('m1', 'm2', 'm3');
const geminiPart = fc.oneof(fc.record({ text: hostile }), fc.record({ text: hostile, thought: fc.boolean() }), fc.record({ inlineData: fc.jsonValue() }), fc.record({ fileData: fc.jsonValue() }), fc.record({ functionResponse: fc.jsonValue() }), fc.jsonValue());
const geminiCall = fc.record(
  {
    id: fc.constantFrom('c1', 'c2'),
    name: hostile,
    args: fc.jsonValue(),
    status: fc.constantFrom('success', 'error', 'cancelled', 'executing', 'awaiting_approval', 'x'),
    result: fc.oneof(fc.array(fc.record({ functionResponse: fc.record({ id: fc.string(), name: fc.string(), response: fc.record({ output: fc.oneof(hostile, fc.jsonValue()), error: hostile }, { requiredKeys: [] }) }) })), fc.jsonValue()),
    resultDisplay: fc.oneof(hostile, fc.jsonValue()),
  },
  { requiredKeys: ['id', 'name'] },
);
const geminiMessage = fc.record(
  {
    id: geminiId,
    timestamp: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.string()),
    type: fc.constantFrom('user', 'gemini', 'info', 'error', 'warning', 'x'),
    content: fc.oneof(hostile, fc.array(geminiPart, { maxLength: 4 })),
    displayContent: fc.oneof(hostile, fc.array(geminiPart, { maxLength: 2 })),
    thoughts: fc.oneof(fc.array(fc.record({ subject: hostile, description: hostile }), { maxLength: 3 }), fc.jsonValue()),
    toolCalls: fc.oneof(fc.array(geminiCall, { maxLength: 3 }), fc.jsonValue()),
  },
  { requiredKeys: ['id', 'type'] },
);
const geminiLine = fc.oneof(
  geminiMessage,
  geminiMessage,
  fc.record({ sessionId: fc.uuid(), projectHash: fc.string(), startTime: fc.string() }),
  fc.record({ $set: fc.oneof(fc.record({ messages: fc.array(fc.oneof(geminiMessage, fc.jsonValue()), { maxLength: 3 }) }), fc.jsonValue()) }),
  fc.record({ $rewindTo: fc.oneof(geminiId, fc.jsonValue()) }),
);
/** Entries shaped like pi's session file. */
const piBlock = fc.oneof(
  fc.record({ type: fc.constant('text'), text: hostile }),
  fc.record({ type: fc.constant('thinking'), thinking: hostile }),
  fc.record({ type: fc.constant('toolCall'), id: fc.constantFrom('t1', 't2'), name: hostile, arguments: fc.jsonValue() }),
  fc.record({ type: fc.constant('image'), data: fc.base64String({ maxLength: 40 }), mimeType: fc.constant('image/png') }),
  fc.jsonValue(),
);
const piMessage = fc.oneof(
  fc.record({ role: fc.constant('user'), content: fc.oneof(hostile, fc.array(piBlock, { maxLength: 3 })) }),
  fc.record({ role: fc.constant('assistant'), content: fc.array(piBlock, { maxLength: 4 }), stopReason: fc.constantFrom('stop', 'toolUse', 'aborted', 'error'), errorMessage: hostile }, { requiredKeys: ['role', 'content'] }),
  fc.record({ role: fc.constant('toolResult'), toolCallId: fc.constantFrom('t1', 't2'), toolName: hostile, content: fc.oneof(hostile, fc.array(piBlock, { maxLength: 2 })), isError: fc.boolean() }),
  fc.record({ role: fc.constant('bashExecution'), command: hostile, output: hostile, exitCode: fc.oneof(fc.integer(), fc.constant(null)), cancelled: fc.boolean() }),
  fc.record({ role: fc.constantFrom('custom', 'branchSummary', 'compactionSummary'), content: hostile, summary: hostile, display: fc.boolean() }),
  fc.jsonValue(),
);
const piLine = fc.record(
  {
    type: fc.constantFrom('session', 'message', 'message', 'compaction', 'custom_message', 'model_change', 'x'),
    id: fc.oneof(fc.uuid(), fc.jsonValue()),
    parentId: fc.oneof(fc.string(), fc.constant(null)),
    timestamp: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.jsonValue()),
    message: piMessage,
    content: fc.oneof(hostile, fc.jsonValue()),
    display: fc.boolean(),
  },
  { requiredKeys: ['type'] },
);

function check(parse: LineParser, line: string, offset: number): Entry[] {
  const entries = parse(line, offset);
  expect(Array.isArray(entries)).toBe(true);
  for (const e of entries) if (e.kind === 'item') expect(WireItem.safeParse(e.item).success).toBe(true);
  return entries;
}

describe('transcript line parsers (any line: items or a skip, never a throw)', () => {
  for (const [name, parse, shaped] of [
    ['Claude Code', parseClaudeLine, claudeLine],
    ['Codex', parseCodexLine, codexLine],
    ['Gemini CLI', parseGeminiLine, geminiLine],
    ['pi', parsePiLine, piLine],
  ] as const) {
    it(`${name}: any string`, () => {
      fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 500 }), fc.nat(), (s, o) => void check(parse, s, o)), { numRuns: 1000 });
    });
    it(`${name}: any JSON`, () => {
      fc.assert(fc.property(fc.jsonValue(), fc.nat(), (v, o) => void check(parse, JSON.stringify(v), o)), { numRuns: 1000 });
    });
    it(`${name}: lines of the agent's shape with hostile words fold into items the phone may draw`, () => {
      fc.assert(
        fc.property(fc.array(fc.tuple(shaped, fc.boolean()), { maxLength: 12 }), (lines) => {
          const log = new ChatLog((s) => s);
          const older = new ChatLog((s) => s);
          let offset = 0;
          const all: Entry[] = [];
          for (const [line, asText] of lines) {
            const text = asText ? JSON.stringify(line) : JSON.stringify(line).slice(0, 40);
            const entries = check(parse, text, offset);
            all.push(...entries);
            log.append(entries);
            offset += text.length + 1;
          }
          older.prepend(all);
          for (const it of [...log.items, ...older.items]) {
            expect(DurableItem.safeParse(it).success).toBe(true);
            for (const v of Object.values(it)) if (typeof v === 'string') expect(CONTROL.test(v)).toBe(false);
          }
          // The same lines read forwards or backwards make the same chat.
          expect(older.items).toEqual(log.items);
        }),
        { numRuns: 300 },
      );
    });
  }
});

/** Chats of files the real agents wrote (fixtures/): what a person saw, in order. */
describe('transcripts written by the real agents', () => {
  const read = (name: string, parse: LineParser) => {
    const log = new ChatLog((s) => s);
    let offset = 0;
    for (const line of readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8').split('\n')) {
      if (line !== '') log.append(parse(line, offset));
      offset += Buffer.byteLength(line) + 1;
    }
    return log;
  };
  const words = (log: ChatLog) => log.items.map((it) => (it.kind === 'tool' ? `tool ${it.name} ${it.input} [${it.status}] ${it.output.trim()}` : `${it.kind} ${'text' in it ? it.text : ''}`));

  it('Gemini CLI 0.61: the person’s words, the answers, and a shell call settled in place (its record is written twice)', () => {
    const log = read('gemini-0.61.jsonl', parseGeminiLine);
    expect(words(log)).toEqual([
      'user hi gemini',
      'markdown Hello from Gemini.',
      'user run it',
      'tool run_shell_command echo collie-marker [done] Output: collie-marker\nProcess Group PGID: 8523',
      'markdown Ran it.',
    ]);
    expect(log.session).toBe('120bdd7f-11c5-4fd9-af43-d943a201726f');
  });

  it('pi 0.73: the person’s words, the answers, and a bash call settled by its result', () => {
    const log = read('pi-0.73.jsonl', parsePiLine);
    expect(words(log)).toEqual(['user hi agent', 'markdown Hello from the agent.', 'user run it', 'markdown I will run a command.', 'tool bash echo collie-marker [done] collie-marker', 'markdown Tool finished: collie-marker']);
    expect(log.session).toBe('01a2415b-fd41-7346-be10-d103cbce1853');
  });

  it('Gemini CLI: a message written again as its call settles replaces the running call where it stood, read forwards or backwards', () => {
    const rec = (status: string, output?: string) =>
      JSON.stringify({ id: 'm1', timestamp: '2026-12-04T12:00:00.000Z', type: 'gemini', content: 'I will look.', toolCalls: [{ id: 'c1', name: 'read_file', args: { file_path: 'a.txt' }, status, ...(output ? { result: [{ functionResponse: { id: 'c1', name: 'read_file', response: { output } } }] } : {}) }] });
    const lines = [rec('executing'), JSON.stringify({ id: 'u2', type: 'user', content: [{ text: 'and?' }] }), rec('success', 'the words')];
    const forwards = new ChatLog((s) => s);
    const backwards = new ChatLog((s) => s);
    let offset = 0;
    const all: Entry[] = [];
    for (const l of lines) {
      const entries = parseGeminiLine(l, offset);
      forwards.append(entries);
      all.push(...entries);
      offset += l.length + 1;
    }
    backwards.prepend(all);
    expect(words(forwards)).toEqual(['markdown I will look.', 'tool read_file a.txt [done] the words', 'user and?']);
    expect(backwards.items).toEqual(forwards.items);
  });

  it('pi: a result settles only a call written before it, read forwards, backwards, or the end first', () => {
    const call = (id: string) => JSON.stringify({ type: 'message', message: { role: 'assistant', content: [{ type: 'toolCall', id, name: 'bash', arguments: { command: 'ls' } }] } });
    const result = (id: string, text: string) => JSON.stringify({ type: 'message', message: { role: 'toolResult', toolCallId: id, toolName: 'bash', content: text, isError: false } });
    // A result before any call of its id (a fast-check counterexample), then a call and its own result.
    const lines = [result('t1', 'stray'), call('t1'), call('t2'), result('t2', 'two')];
    const entries: Entry[][] = [];
    let offset = 0;
    for (const l of lines) {
      entries.push(parsePiLine(l, offset));
      offset += l.length + 1;
    }
    const forwards = new ChatLog((s) => s);
    for (const e of entries) forwards.append(e);
    const backwards = new ChatLog((s) => s);
    backwards.prepend(entries.flat());
    // The follower reads the end of the file first and the history above it later.
    const endFirst = new ChatLog((s) => s);
    endFirst.append(entries.slice(2).flat());
    endFirst.prepend(entries.slice(0, 2).flat());
    expect(words(forwards)).toEqual(['tool bash ls [running] ', 'tool bash ls [done] two']);
    expect(backwards.items).toEqual(forwards.items);
    expect(endFirst.items).toEqual(forwards.items);
    // The end first, where the result's call is in the history read later: settled all the same.
    const split = new ChatLog((s) => s);
    split.append(entries.slice(3).flat());
    split.prepend(entries.slice(0, 3).flat());
    expect(split.items).toEqual(forwards.items);
  });
});

describe('images and attachments', () => {
  const items = (entries: Entry[]) => entries.flatMap((e) => (e.kind === 'item' ? [{ kind: e.item.kind, text: 'text' in e.item ? e.item.text : '' }] : []));
  it('Claude Code: an image or a document the person attached is a placeholder, never its bytes', () => {
    const line = JSON.stringify({
      type: 'user',
      sessionId: 's',
      timestamp: '2026-12-04T12:00:00.000Z',
      message: { role: 'user', content: [{ type: 'text', text: 'what is in this' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo'.repeat(1000) } }, { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x' } }] },
    });
    expect(items(parseClaudeLine(line, 0))).toEqual([
      { kind: 'user', text: 'what is in this' },
      { kind: 'notice', text: 'Image attached' },
      { kind: 'notice', text: 'File attached' },
    ]);
  });
  it('Codex: an image in the person’s message is a placeholder', () => {
    const line = (content: unknown[]) => JSON.stringify({ timestamp: '2026-12-04T12:00:00.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content } });
    const image = { type: 'input_image', image_url: `data:image/png;base64,${'iVBORw0KGgo'.repeat(1000)}` };
    expect(items(parseCodexLine(line([image]), 0))).toEqual([{ kind: 'notice', text: 'Image attached' }]);
    expect(items(parseCodexLine(line([{ type: 'input_text', text: 'what is in this ' }, image]), 0))).toEqual([
      { kind: 'user', text: 'what is in this ' },
      { kind: 'notice', text: 'Image attached' },
    ]);
  });
});
