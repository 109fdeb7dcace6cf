import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { capTranscriptItem, utf8Prefix } from './transcript-cap';

const line = (kind: 'tool_call' | 'tool_result' | 'text', payload: Record<string, unknown>) => ({ agent_id: 'ag_0123456789ab', seq: 0, kind, payload, at: 1 });

describe('transcript_item_max_bytes', () => {
  it('keeps a tool result under the cap whole and cuts a longer one, saying how much was dropped', () => {
    expect(capTranscriptItem(line('tool_result', { output: 'short' }), 256).payload).toEqual({ output: 'short' });
    const cut = capTranscriptItem(line('tool_result', { output: 'x'.repeat(1000) }), 256);
    expect(cut.payload.output).toBe(`${'x'.repeat(256)}… [744 more bytes not kept]`);
    expect(cut.payload.truncated).toBe(true);
  });

  it('cuts a tool call input object as its JSON and leaves text lines alone', () => {
    const cut = capTranscriptItem(line('tool_call', { name: 'Bash', input: { command: 'y'.repeat(600) } }), 256);
    expect(cut.payload.name).toBe('Bash');
    expect(String(cut.payload.input).startsWith('{"command":"yyy')).toBe(true);
    const text = line('text', { text: 'z'.repeat(1000) });
    expect(capTranscriptItem(text, 256)).toBe(text);
  });

  it('never splits a character and never exceeds the cap (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.integer({ min: 1, max: 300 }), (s, max) => {
        const p = utf8Prefix(s, max);
        expect(Buffer.byteLength(p, 'utf8')).toBeLessThanOrEqual(max);
        expect(s.startsWith(p)).toBe(true);
        expect(p.endsWith('\uFFFD') && !s.includes('\uFFFD')).toBe(false);
      }),
    );
  });
});
