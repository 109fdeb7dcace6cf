import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHead } from './heads';

/**
 * Each store's list parser (a session file's head and tail) against hostile files: any bytes,
 * lines cut anywhere, JSON of the right shape with every field wrong. It never throws, answers
 * strings or null, keeps a title or first message to one line of at most 300 characters, and
 * finds the id and folder a well-formed header gives, whatever follows.
 */
const AGENTS = ['claude', 'codex', 'gemini', 'pi'] as const;
const hostile = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.constantFrom('\u0000\u001b[31m\u202e', '{"type":', '}\n{', '\n\n\n', '<environment_context>x</environment_context>', '<session_context>'));
const anyLine = fc.oneof(
  hostile,
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.record({ type: fc.constantFrom('user', 'assistant', 'session', 'session_meta', 'response_item', 'event_msg', 'message', 'summary', 'custom-title'), cwd: fc.oneof(hostile, fc.jsonValue()), sessionId: fc.jsonValue(), payload: fc.jsonValue(), message: fc.jsonValue(), summary: fc.jsonValue(), content: fc.jsonValue() }, { requiredKeys: ['type'] }).map((o) => JSON.stringify(o)),
);
const file = fc.array(anyLine, { maxLength: 30 }).map((lines) => lines.join('\n'));
const cut = fc.tuple(file, fc.nat()).map(([text, at]) => Buffer.from(text).subarray(0, at % (Buffer.byteLength(text) + 1)));

function checkShape(h: ReturnType<typeof parseHead>): void {
  for (const v of [h.id, h.folder, h.title, h.first]) expect(v === null || typeof v === 'string').toBe(true);
  for (const v of [h.title, h.first]) {
    if (v === null) continue;
    expect(v.length).toBeLessThanOrEqual(300);
    expect(v).not.toMatch(/[\n\r]/);
    expect(v.trim()).toBe(v);
  }
}

/** A well-formed header and first message for each agent, as its real files start. */
const HEADERS: Record<(typeof AGENTS)[number], (id: string, folder: string, first: string) => string[]> = {
  claude: (id, folder, first) => [JSON.stringify({ type: 'user', sessionId: id, cwd: folder, timestamp: '2026-12-04T10:00:00.000Z', message: { role: 'user', content: first } })],
  codex: (id, folder, first) => [
    JSON.stringify({ timestamp: '2026-12-04T10:00:00.000Z', type: 'session_meta', payload: { id, cwd: folder, timestamp: '2026-12-04T10:00:00.000Z' } }),
    JSON.stringify({ timestamp: '2026-12-04T10:00:01.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: first }] } }),
  ],
  gemini: (id, _folder, first) => [JSON.stringify({ sessionId: id, projectHash: 'x', startTime: '2026-12-04T10:00:00.000Z', lastUpdated: '2026-12-04T10:00:00.000Z', kind: 'main' }), JSON.stringify({ id: 'm1', timestamp: '2026-12-04T10:00:01.000Z', type: 'user', content: [{ text: first }] })],
  pi: (id, folder, first) => [JSON.stringify({ type: 'session', version: 3, id, timestamp: '2026-12-04T10:00:00.000Z', cwd: folder }), JSON.stringify({ type: 'message', id: 'a', parentId: null, timestamp: '2026-12-04T10:00:01.000Z', message: { role: 'user', content: [{ type: 'text', text: first }] } })],
};

describe('session list parsers against hostile files', () => {
  for (const agent of AGENTS) {
    it(`${agent}: any bytes, cut anywhere, never throw and answer one-line strings or null`, () => {
      fc.assert(
        fc.property(cut, fc.option(cut, { nil: null }), (head, tail) => {
          checkShape(parseHead(agent, head, tail));
        }),
        { numRuns: 300 },
      );
    });
    it(`${agent}: a well-formed start gives its id, folder and first message, whatever lines follow`, () => {
      fc.assert(
        fc.property(fc.uuid(), fc.constantFrom('/home/u/shop', '/tmp/a b/c'), fc.string({ minLength: 1, maxLength: 500 }).filter((s) => s.trim() !== '' && !/^\s*</.test(s)), fc.array(anyLine, { maxLength: 10 }), (id, folder, first, rest) => {
          const text = [...HEADERS[agent](id, folder, first), ...rest].join('\n') + '\n';
          const h = parseHead(agent, Buffer.from(text), null, agent === 'gemini' ? folder : null);
          checkShape(h);
          expect(h.id).toBe(id);
          expect(h.folder).toBe(folder);
          const line = first.replace(/\s+/g, ' ').trim();
          expect(h.first).toBe(line.length > 300 ? `${line.slice(0, 299)}…` : line);
        }),
        { numRuns: 200 },
      );
    });
  }
});
