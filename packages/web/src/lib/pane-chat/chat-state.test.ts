import { describe, expect, it } from 'vitest';
import type { DurableItem, PaneChatMessage } from '@collie/protocol';
import { EMPTY_CHAT, applyChat, prependHistory } from './chat-state';
import { firstView } from './words';

const item = (id: string, text: string): DurableItem => ({ kind: 'markdown', id, at: 0, final: true, text, shortened: false, href: null, receipt: false });
const tool = (id: string, status: 'running' | 'done'): DurableItem => ({ kind: 'tool', id, at: 0, final: true, callId: 'c', name: 'Bash', input: 'ls', status, output: status === 'done' ? 'a' : '', shortened: false, href: null, receipt: false });
const source = { agent: 'claude', path: '/a.jsonl', session: 's' };
const msg = (reset: boolean, items: DurableItem[], before: string | null = null, path = '/a.jsonl'): PaneChatMessage => ({ type: 'pane.chat', id: 'p', reset, source: { ...source, path }, reason: null, items, before });

describe('a pane’s chat on the phone', () => {
  it('a reset replaces; later items append in transcript order; a changed tool is replaced in place', () => {
    let s = applyChat(EMPTY_CHAT, msg(true, [item('100', 'a'), tool('200', 'running')], '100'));
    s = applyChat(s, msg(false, [item('300', 'c')]));
    s = applyChat(s, msg(false, [tool('200', 'done'), item('250.1', 'b')]));
    expect(s.items.map((i) => i.id)).toEqual(['100', '200', '250.1', '300']);
    expect(s.items[1]).toMatchObject({ status: 'done', output: 'a' });
    expect(s.before).toBe('100');
  });

  it('History goes in front, and a page of another file or an earlier reset is dropped', () => {
    const s = applyChat(EMPTY_CHAT, msg(true, [item('100', 'a')], '100'));
    const older = { id: 'p', source, reason: null, items: [item('10', 'old')], before: null };
    expect(prependHistory(s, older, s.generation).items.map((i) => i.id)).toEqual(['10', '100']);
    expect(prependHistory(s, older, s.generation).before).toBeNull();
    expect(prependHistory(s, older, s.generation - 1)).toBe(s);
    expect(prependHistory(s, { ...older, source: { ...source, path: '/b.jsonl' } }, s.generation)).toBe(s);
  });

  it('Chat first when a transcript is found, unless the person chose', () => {
    expect(firstView(null, true)).toBe('chat');
    expect(firstView(null, false)).toBe('terminal');
    expect(firstView('terminal', true)).toBe('terminal');
  });
});
