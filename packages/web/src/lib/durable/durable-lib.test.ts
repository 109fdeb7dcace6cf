import type { DurableItem, DurableQuestion, FormField } from '@collie/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countWords, formAnswer, missingRequired } from './answers';
import { cardViews, placeCards, requestIdFor, type Tap } from './cards';
import { foldClosed, EMPTY_CLOSED } from './closed-list';
import { cardsToShow, expiryWords } from './countdown';
import { GONE_MS, lineStateAfter, MATCH_MS, pendingLines, placeOwnLines, refusedEchoes, showsWorking, type OwnLine } from './own-lines';
import { tapWords } from './words';

const q = (id: string, version = 0, toolCall: string | null = null): DurableQuestion => ({
  kind: 'choice',
  id,
  version,
  title: id,
  body: null,
  toolCall: toolCall ? { id: toolCall, name: 'write_file' } : null,
  expiresAt: null,
  push: null,
  shortened: false,
  at: 0,
  multiple: false,
  options: [{ id: 'a', label: 'A' }],
  answerable: true,
});
const user = (id: string, text: string, at: number, requestId: string | null = null): DurableItem => ({ kind: 'user', id, text, at, final: true, requestId, shortened: false, href: null, receipt: false });
const reply = (id: string): DurableItem => ({ kind: 'reply', id, text: 'ok', at: 0, final: true, shortened: false, href: null, receipt: false });
const tool = (id: string, callId: string): DurableItem => ({ kind: 'tool', id, at: 0, final: true, callId, name: 'write_file', input: '', status: 'running', output: '', shortened: false, href: null, receipt: false });
const line = (requestId: string, text: string, at: number, state: OwnLine['state'] = 'sent', seen = 0): OwnLine => ({ requestId, text, at, state, steer: false, seen, after: null, reason: null });

describe('the expiry countdown', () => {
  it('says minutes, then seconds under a minute, then Expired', () => {
    expect(expiryWords(null, 0)).toBeNull();
    expect(expiryWords(240_000, 0)).toBe('Expires in 4 min');
    expect(expiryWords(40_000, 0)).toBe('Expires in 40 s');
    expect(expiryWords(60_000, 0)).toBe('Expires in 1 min');
    // Whole minutes left: 61 s is "1 min" (never "2 min"), 4 min 59 s is "4 min".
    expect(expiryWords(61_000, 0)).toBe('Expires in 1 min');
    expect(expiryWords(59_500, 0)).toBe('Expires in 1 min');
    expect(expiryWords(59_000, 0)).toBe('Expires in 59 s');
    expect(expiryWords(500, 0)).toBe('Expires in 1 s');
    expect(expiryWords(119_000, 0)).toBe('Expires in 1 min');
    expect(expiryWords(120_000, 0)).toBe('Expires in 2 min');
    expect(expiryWords(299_000, 0)).toBe('Expires in 4 min');
    expect(expiryWords(1000, 1000)).toBe('Expired');
    expect(expiryWords(1000, 5000)).toBe('Expired');
  });
  it('never goes up as the clock moves on', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3_600_000 }), fc.integer({ min: 0, max: 3_600_000 }), (a, b) => {
        const rank = (w: string) => (w === 'Expired' ? 0 : w.endsWith(' s') ? 1 : 2);
        const [early, late] = [Math.min(a, b), Math.max(a, b)];
        expect(rank(expiryWords(3_600_000, late)!)).toBeLessThanOrEqual(rank(expiryWords(3_600_000, early)!));
      }),
    );
  });
  it('draws the first 5 cards, and Show N more the rest', () => {
    expect(cardsToShow([1, 2, 3, 4, 5], false)).toEqual({ shown: [1, 2, 3, 4, 5], more: 0 });
    expect(cardsToShow([1, 2, 3, 4, 5, 6, 7], false)).toEqual({ shown: [1, 2, 3, 4, 5], more: 2 });
    expect(cardsToShow([1, 2, 3, 4, 5, 6, 7], true).more).toBe(0);
  });
});

describe('cards after a tap', () => {
  const tap = (question: DurableQuestion, outcome: Tap['result'] extends infer R ? (R extends { outcome: infer O } ? O : never) : never, updatedAt = 1): Tap => ({
    question,
    requestId: `r-${question.id}`,
    answer: { kind: 'choice', options: ['a'] },
    result: { outcome, reason: null, conversationId: null },
    updatedAt,
  });
  it('closes a taken card, freezes decided and timed out ones after they end, drops the rest', () => {
    const taps = new Map([
      ['taken', tap(q('taken'), 'taken')],
      ['decided', tap(q('decided'), 'decided')],
      ['timed', tap(q('timed'), 'timed_out')],
      ['notopen', tap(q('notopen'), 'not_open')],
      ['already', tap(q('already'), 'already_answered')],
    ]);
    const live = [q('taken'), q('fresh')];
    expect(cardViews(live, taps, 1).map((v) => [v.question.id, v.frozen])).toEqual([
      ['fresh', false],
      ['decided', true],
      ['timed', true],
      ['already', true],
    ]);
    // Already answered goes away on the next update.
    expect(cardViews(live, taps, 2).map((v) => v.question.id)).toEqual(['fresh', 'decided', 'timed']);
  });
  it('keeps an unsure request id for Try again, and takes a fresh one otherwise', () => {
    expect(requestIdFor(tap(q('x'), 'unsure'), () => 'new')).toBe('r-x');
    expect(requestIdFor(tap(q('x'), 'changed'), () => 'new')).toBe('new');
    expect(requestIdFor(undefined, () => 'new')).toBe('new');
  });
  it('draws a card under the tool call it is about, the others last', () => {
    const rows = placeCards([tool('t1', 'call-1'), reply('r')], [{ question: q('about', 0, 'call-1') }, { question: q('loose') }]);
    expect(rows.map((r) => (r.kind === 'item' ? r.item.id : r.card.question.id))).toEqual(['t1', 'about', 'r', 'loose']);
  });
  it('says every outcome in the page words', () => {
    expect(tapWords('taken', null)).toBeNull();
    expect(tapWords('refused', null)).toBe('The answer was refused.');
    expect(tapWords('refused', 'No.')).toBe('No.');
    expect(tapWords('older_collie', null)).toBe('This machine runs an older Collie and cannot take answers here. Update it, or answer in the durable agent.');
    expect(tapWords('moved_on', null)).toBe('The conversation moved on, so the action did not run.');
  });
});

describe('your own line', () => {
  it('is replaced by the echo of its request id, or by the same text within 30 s', () => {
    const lines = [line('r1', 'hello', 1000), line('r2', 'again', 1000), line('r3', 'late', 1000)];
    const items = [user('u1', 'anything', 5000, 'r1'), user('u2', 'again', 1000 + MATCH_MS), user('u3', 'late', 1000 + MATCH_MS + 1)];
    expect(pendingLines(lines, items, 2000).map((l) => l.requestId)).toEqual(['r3']);
  });
  it('matches one item to one line', () => {
    const lines = [line('r1', 'same', 0), line('r2', 'same', 10)];
    expect(pendingLines(lines, [user('u', 'same', 5)], 20).map((l) => l.requestId)).toEqual(['r2']);
  });
  it('keeps "Not sent" when the agent wrote its copy and then refused, and leaves that copy out', () => {
    const lines = [line('r1', 'no', 0, 'not_sent')];
    const items = [user('u1', 'no', 0, 'r1'), reply('a')];
    expect(pendingLines(lines, refusedEchoes(lines, items), 10).map((l) => l.state)).toEqual(['not_sent']);
    expect(refusedEchoes(lines, items).map((i) => i.id)).toEqual(['a']);
  });
  it('stops showing after 10 minutes', () => {
    expect(pendingLines([line('r', 'x', 0)], [], GONE_MS)).toHaveLength(1);
    expect(pendingLines([line('r', 'x', 0)], [], GONE_MS + 1)).toHaveLength(0);
  });
  it('says Sent, Sending not confirmed or Not sent by the outcome', () => {
    expect(lineStateAfter('taken')).toBe('sent');
    expect(lineStateAfter('unsure')).toBe('unsure');
    expect(lineStateAfter('refused')).toBe('not_sent');
    expect(lineStateAfter('moved_on')).toBe('not_sent');
  });
  it('shows three dots while your line is the newest thing and unanswered', () => {
    expect(showsWorking([line('r', 'x', 0, 'sending', 2)], [reply('a'), reply('b')])).toBe(true);
    expect(showsWorking([line('r', 'x', 0, 'sent', 2)], [reply('a'), reply('b'), reply('c')])).toBe(false);
    expect(showsWorking([line('r', 'x', 0, 'not_sent', 2)], [reply('a')])).toBe(false);
    expect(showsWorking([], [reply('a'), user('u', 'x', 0)])).toBe(true);
    expect(showsWorking([], [user('u', 'x', 0), reply('a')])).toBe(false);
  });
});

describe('answers and the closed list', () => {
  const fields: FormField[] = [
    { kind: 'text', id: 's', label: 'Summary', required: true, limit: 5 },
    { kind: 'choice', id: 't', label: 'Team', required: false, options: [{ id: 'w', label: 'Web' }] },
    { kind: 'toggle', id: 'u', label: 'Urgent', required: false },
  ];
  it('counts text as "12 of 500", finds a missing required field, and fills every field', () => {
    expect(countWords('Twelve chars', 500)).toBe('12 of 500');
    expect(missingRequired(fields, {})?.id).toBe('s');
    expect(missingRequired(fields, { s: '  ' })?.id).toBe('s');
    expect(missingRequired(fields, { s: 'x' })).toBeNull();
    expect(formAnswer(fields, { s: 'toolong' })).toEqual({ kind: 'form', values: { s: 'toolo', t: [], u: false } });
  });
  it('keeps a list drawn when a later read fails, and pages on', () => {
    const row = (id: string) => ({ id, title: null, subtitle: null, updatedAt: 0 });
    const first = foldClosed(EMPTY_CLOSED, { state: 'ok', conversations: [row('a')], next: '1' }, false);
    const second = foldClosed(first, { state: 'ok', conversations: [row('b')], next: null }, true);
    expect(second.rows.map((r) => r.id)).toEqual(['a', 'b']);
    expect(foldClosed(second, null, false)).toEqual({ rows: second.rows, next: null, note: "Couldn't load the conversations. Try again." });
    expect(foldClosed(second, { state: 'no_answer' }, false).rows).toHaveLength(2);
    expect(foldClosed(second, { state: 'no_answer' }, false).note).toBe('The durable agent did not answer. Try again in a moment.');
    expect(foldClosed(second, { state: 'no_list' }, false)).toEqual({ rows: [], next: null, note: 'This durable agent does not keep a list of its conversations.' });
  });
});

describe('card order', () => {
  it('keeps a frozen card in the place it was first seen', async () => {
    const { seenOrder, inOrder } = await import('./cards');
    const order = seenOrder(seenOrder([], [q('a'), q('b'), q('c')]), [q('b'), q('d')]);
    expect(order).toEqual(['a', 'b', 'c', 'd']);
    expect(inOrder([{ question: q('d') }, { question: q('a') }, { question: q('c') }], order).map((x) => x.question.id)).toEqual(['a', 'c', 'd']);
  });
});

describe('durable routes', () => {
  it('parses the list, a chat, New conversation and a closed conversation to read', async () => {
    const { parseRoute } = await import('../routes');
    expect(parseRoute('#/durable/desk')).toEqual({ name: 'durable', agent: 'desk' });
    expect(parseRoute('#/durable/desk/c%2F1')).toEqual({ name: 'durable-chat', agent: 'desk', id: 'c/1' });
    expect(parseRoute('#/durable-new/desk')).toEqual({ name: 'durable-new', agent: 'desk' });
    expect(parseRoute('#/durable-read/desk/old-0')).toEqual({ name: 'durable-read', agent: 'desk', id: 'old-0' });
    expect(parseRoute('#/durable-new/desk/x')).toEqual({ name: 'not-found' });
    expect(parseRoute('#/durable-read/desk')).toEqual({ name: 'not-found' });
    expect(parseRoute('#/durable-read/%E0%A4%A/x')).toEqual({ name: 'not-found' });
  });
});

describe('placeOwnLines', () => {
  it('puts each line right after the item newest when it was sent, in send order; a lost item sends it to the end', () => {
    const l = (id: string, after: string | null): OwnLine => ({ ...line(id, id, 0), after });
    const rows = ['a', 'b', 'c'];
    const placed = placeOwnLines(rows, (r) => r, [l('1', 'a'), l('2', null), l('3', 'a'), l('4', 'gone'), l('5', 'c')]);
    expect(placed.map((p) => (typeof p === 'string' ? p : `+${p.requestId}`))).toEqual(['+2', 'a', '+1', '+3', 'b', 'c', '+5', '+4']);
  });
});
