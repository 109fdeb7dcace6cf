import type { DurableItem, SendReceipt } from '@collie/protocol';
import { describe, expect, it } from 'vitest';
import type { ChatEntry } from '../walky/chat';
import { withSends } from './sends';

const user = (id: string, text: string, at: number): ChatEntry => ({ kind: 'item', item: { kind: 'user', id, at, text, final: true, requestId: null } as unknown as DurableItem });
const reply = (id: string, text: string, at: number): ChatEntry => ({ kind: 'item', item: { kind: 'reply', id, at, text, final: true } as unknown as DurableItem });
const receipt = (requestId: string, summary: string, createdAt: number, kind: SendReceipt['kind'] = 'text'): SendReceipt =>
  ({ requestId, summary, createdAt, kind, state: 'typed', final: true, outcome: 'typed into the pane' }) as unknown as SendReceipt;
const shape = (rows: ReturnType<typeof withSends>) => rows.map((r) => (r.kind === 'send' ? `send:${r.receipt.requestId}` : r.kind === 'sent' ? `sent:${r.receipt.requestId}` : r.kind));

describe('withSends: each receipt on its own bubble', () => {
  it('puts a receipt on the bubble that echoes its text, dated no earlier than the send', () => {
    const rows = withSends([user('u0', 'hello', 1_000), reply('r0', 'hi', 2_000), user('u1', 'hello', 10_000)], [receipt('a', 'hello', 9_000)], () => null);
    expect(shape(rows)).toEqual(['item', 'item', 'sent:a']);
  });
  it('matches a cut summary by its start, and the whole text when this page sent it', () => {
    const long = 'please look at the login form and tell me why it fails';
    expect(shape(withSends([user('u', long, 5_000)], [receipt('a', 'please look at the lo…', 5_000)], () => null))).toEqual(['sent:a']);
    expect(shape(withSends([user('u', long, 5_000)], [receipt('a', 'please look…', 5_000)], (id) => (id === 'a' ? 'something else' : null)))).toEqual(['item', 'send:a']);
  });
  it('a send the transcript does not echo (held, keys) stands as its own bubble at its time', () => {
    const rows = withSends([reply('r0', 'one', 1_000), reply('r1', 'two', 3_000)], [receipt('k', 'Enter', 2_000, 'keys'), receipt('h', 'later', 4_000)], () => null);
    expect(shape(rows)).toEqual(['item', 'send:k', 'item', 'send:h']);
  });
  it('one bubble carries one receipt: the same text sent twice takes two bubbles', () => {
    const rows = withSends([user('u0', 'go', 1_000), user('u1', 'go', 2_000)], [receipt('a', 'go', 900), receipt('b', 'go', 1_900)], () => null);
    expect(shape(rows)).toEqual(['sent:a', 'sent:b']);
  });
});
