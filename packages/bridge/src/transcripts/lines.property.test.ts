import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DurableItem, WireItem } from '@collie/protocol';
import { ChatLog } from './chat-log';
import { parseClaudeLine } from './claude-lines';
import { parseCodexLine } from './codex-lines';
import type { Entry, LineParser } from './entries';

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
    subtype: fc.constantFrom('compact_boundary', 'local_command', 'api_error'),
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
