import fc from 'fast-check';
import type { WalkyMessage } from '@collie/protocol';
import { describe, expect, it } from 'vitest';
import type { DurableItem } from '@collie/protocol';
import { broadcastChoice, confirmWords, refusalLines } from './broadcast';
import { makePane } from '../../../test/fixtures';
import { chatTimeline } from './chat';
import { headerIds, idsIn, plainRows, splitIds } from './ids';
import { mergeMessages, paneMessages, receiptLine } from './messages';
import { walkyTool } from './tool';

const msg = (id: string, at: number, extra: Partial<WalkyMessage> = {}): WalkyMessage => ({
  v: 1,
  id,
  at,
  from: { kind: 'agent', paneId: 's:%1', address: 'local/s:%1#aaaa', label: 'repo#main', harness: 'claude' },
  to: { paneId: 's:%2', pane: 'local/s:%2', address: 'local/s:%2#bbbb', token: 'bbbb', harness: 'claude', label: 'repo#fix' },
  asked: 'local/s:%2#bbbb',
  replyTo: null,
  body: 'hi',
  state: 'delivered',
  reason: null,
  verified: 'local',
  read: false,
  updatedAt: at,
  ...extra,
});

describe('walky on the phone, pure parts', () => {
  it('cuts text at every message id and puts it back together unchanged', () => {
    expect(splitIds('see wt_k3f9x2m8q1a0 and wt_n2d8s1v7c4b9.')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'id', id: 'wt_k3f9x2m8q1a0' },
      { kind: 'text', text: ' and ' },
      { kind: 'id', id: 'wt_n2d8s1v7c4b9' },
      { kind: 'text', text: '.' },
    ]);
    expect(idsIn('wt_short wt_k3f9x2m8q1a0x wt_k3f9x2m8q1a0 wt_k3f9x2m8q1a0')).toEqual(['wt_k3f9x2m8q1a0']);
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'w', 't', '_', '0', ' ', '\n', 'k', '[') }), (s) => {
        expect(splitIds(s).map((p) => (p.kind === 'id' ? p.id : p.text)).join('')).toBe(s);
      }),
    );
  });

  it('finds header ids and reads rows without their colours', () => {
    const rows = ['\u001b[1m> [walky-talky wt_k3f9x2m8q1a0] from operator (phone)\u001b[0m', 'printed wt_n2d8s1v7c4b9'];
    expect(headerIds(plainRows(rows))).toEqual(['wt_k3f9x2m8q1a0']);
  });

  it('merges by id, newest copy wins, newest first; a pane lists what reached it and what it sent', () => {
    const a = msg('wt_aaaaaaaaaaaa', 1);
    const b = msg('wt_bbbbbbbbbbbb', 2);
    const merged = mergeMessages([a, b], [{ ...a, state: 'inbox-only', reason: 'draft present', updatedAt: 5 }]);
    expect(merged.map((m) => m.id)).toEqual([b.id, a.id]);
    expect(merged[1]!.state).toBe('inbox-only');
    const refused = msg('wt_cccccccccccc', 3, { state: 'refused', reason: 'pane replaced' });
    expect(paneMessages([...merged, refused], { id: 's:%2', token: 'bbbb' }).map((m) => m.id)).toEqual([b.id, a.id]);
    expect(paneMessages([refused], { id: 's:%1', token: 'zzzz' })).toHaveLength(1);
    expect(receiptLine(merged[1]!)).toBe('Message to local/s:%2: waiting in the inbox, not typed: draft present');
    // Refused before a pane was found: the address asked, without its token.
    expect(receiptLine({ ...refused, to: null, asked: 'local/s:%1#zzzz', reason: 'pane replaced' })).toBe('Message to local/s:%1: not sent: pane replaced');
  });

  it('counts what "Send to" reaches: every reachable machine, this one, or one member; never an unreachable one or a shell', () => {
    const away = { name: 'gamma', reachable: false, lastSeen: 1 };
    const panes = [
      makePane({ id: 'a:%1', address: 'local/a:%1#aaaa' }),
      makePane({ id: 'a:%2', address: 'local/a:%2#bbbb', harness: 'shell' }),
      makePane({ id: '@alpha/a:%1', address: 'alpha/a:%1#cccc', member: { name: 'alpha', reachable: true, lastSeen: 1 } }),
      makePane({ id: '@alpha/a:%2', address: 'alpha/a:%2#dddd', member: { name: 'alpha', reachable: true, lastSeen: 1 } }),
      makePane({ id: '@gamma/a:%1', address: 'gamma/a:%1#eeee', member: away }),
    ];
    const count = (member: string) => {
      const c = broadcastChoice(panes, member);
      return [c.agents.length, c.machines, c.shells.length];
    };
    expect(count('all')).toEqual([3, 2, 1]);
    expect(count('local')).toEqual([1, 1, 1]);
    expect(count('alpha')).toEqual([2, 1, 0]);
    expect(count('gamma')).toEqual([0, 1, 0]);
  });

  it('says the count and the refusals in words', () => {
    expect(confirmWords(5, 2)).toBe('Message 5 agents on 2 machines?');
    expect(confirmWords(1, 1)).toBe('Message 1 agent on 1 machine?');
    expect(refusalLines({ off: 1, 'pane replaced': 3, empty: 0 })).toEqual(['pane replaced: 3', 'off: 1']);
  });

  it('puts a message that reached the pane in its Chat: in place of the item carrying its header, else at its time', () => {
    const pane = { id: 's:%2', token: 'bbbb' };
    const user = (id: string, at: number, text: string): DurableItem => ({ kind: 'user', id, at, final: true, text, requestId: null, shortened: false, href: null, receipt: false });
    const reply = (id: string, at: number, text: string): DurableItem => ({ kind: 'reply', id, at, final: true, text, shortened: false, href: null, receipt: false });
    const typed = msg('wt_aaaaaaaaaaaa', 150, { state: 'delivered' });
    const inbox = msg('wt_bbbbbbbbbbbb', 250, { state: 'inbox-only', reason: 'draft present' });
    const other = msg('wt_cccccccccccc', 120, { to: { ...typed.to!, paneId: 's:%9', token: 'zzzz' } });
    const oldToken = msg('wt_dddddddddddd', 130, { to: { ...typed.to!, token: 'old1' } });
    const refused = msg('wt_eeeeeeeeeeee', 140, { state: 'refused', reason: 'pane busy' });
    const sentByPane = msg('wt_ffffffffffff', 160, { from: { ...typed.from, paneId: 's:%2' }, to: { ...typed.to!, paneId: 's:%1', token: 'aaaa' } });
    const items = [
      user('1', 100, 'fix the tests'),
      reply('2', 110, 'Done.'),
      user('3', 200, '[walky-talky wt_aaaaaaaaaaaa] from agent local/s:%1#aaaa (claude, repo#main): run collie walky inbox wt_aaaaaaaaaaaa'),
      reply('4', 210, 'Read it.'),
      reply('5', 300, 'Later.'),
    ];
    const got = chatTimeline(items, [typed, inbox, other, oldToken, refused, sentByPane], pane).map((e) => (e.kind === 'item' ? e.item.id : e.message.id));
    expect(got).toEqual(['1', '2', 'wt_aaaaaaaaaaaa', '4', 'wt_bbbbbbbbbbbb', '5']);
    // A header whose id the log does not hold stays the item it is; no log, no card.
    const printed = [user('9', 100, '[walky-talky wt_zzzzzzzzzzzz] from agent x')];
    expect(chatTimeline(printed, [typed], pane).map((e) => e.kind)).toEqual(['item', 'message']);
    expect(chatTimeline(items, [], pane).every((e) => e.kind === 'item')).toBe(true);
    fc.assert(
      fc.property(fc.array(fc.nat(1000), { maxLength: 12 }), fc.array(fc.nat(1000), { maxLength: 6 }), (its, ms) => {
        const list = its.sort((a, b) => a - b).map((at, i) => reply(String(i), at, 'x'));
        const logged = ms.map((at, i) => msg(`wt_${String(i).padStart(12, '0')}`, at));
        const out = chatTimeline(list, logged, pane);
        expect(out.filter((e) => e.kind === 'item').map((e) => (e.kind === 'item' ? e.item.id : ''))).toEqual(list.map((it) => it.id));
        expect(out.filter((e) => e.kind === 'message')).toHaveLength(logged.length);
        const times = out.map((e) => (e.kind === 'item' ? e.item.at : e.message.at));
        expect(times).toEqual([...times].sort((a, b) => a - b));
      }),
    );
  });
});

describe('a tool card that ran collie walky', () => {
  const A = { id: 's:%1', token: 'aaaa' };
  const sentByA = (id: string, extra: Partial<WalkyMessage> = {}) => msg(id, 5, { from: { kind: 'agent', paneId: 's:%1', token: 'aaaa', address: 'local/s:%1#aaaa', label: 'repo#main', harness: 'claude' }, ...extra });
  const toA = (id: string) => msg(id, 6, { to: { paneId: 's:%1', pane: 'local/s:%1', address: 'local/s:%1#aaaa', token: 'aaaa', harness: 'claude', label: 'repo#main' } });
  const log = [sentByA('wt_aaaaaaaaaaa1'), sentByA('wt_aaaaaaaaaaa2', { replyTo: 'wt_bbbbbbbbbbb1' }), toA('wt_bbbbbbbbbbb1'), msg('wt_cccccccccccc', 7)];

  it('knows the call under any name the skill pins, and nothing else', () => {
    for (const input of ['collie walky who', '/opt/collie/packages/cli/bin/collie.cjs walky who', 'COLLIE_INSTANCE=b collie walky who', 'cd x && collie walky who --json', "'/a b/bin/collie.mjs' walky who"]) {
      expect(walkyTool(input, '', log, A)?.verb, input).toBe('who');
    }
    for (const input of ['echo collie walky', 'mycollie walky who', 'collie doctor', 'ls walky', 'collie  skill sync']) {
      expect(walkyTool(input, '', log, A)?.verb ?? null, input).toBeNull();
    }
    expect(walkyTool('echo collie walky', '', log, A)).toBeNull();
    expect(walkyTool('collie walky', '', log, A)).toEqual({ verb: null, sent: null, read: null });
  });

  it('takes the receipt and the message from the log, never from what was printed', () => {
    expect(walkyTool('collie walky send local/s:%2#bbbb "hi"', 'wt_aaaaaaaaaaa1\nto …\nqueued\n', log, A)?.sent?.id).toBe('wt_aaaaaaaaaaa1');
    expect(walkyTool('collie walky reply wt_bbbbbbbbbbb1 "ok"', 'wt_aaaaaaaaaaa2\n', log, A)?.sent?.id).toBe('wt_aaaaaaaaaaa2');
    // A printed id this pane did not send, or a send's id under reply: no line.
    expect(walkyTool('collie walky send local/s:%2 hi', 'wt_cccccccccccc\n', log, A)?.sent).toBeNull();
    expect(walkyTool('collie walky reply wt_bbbbbbbbbbb1 ok', 'wt_aaaaaaaaaaa1\n', log, A)?.sent).toBeNull();
    expect(walkyTool('collie walky send local/s:%2 hi', 'wt_zzzzzzzzzzzz\n', log, A)?.sent).toBeNull();
    // Another token of the same pane id is another pane.
    expect(walkyTool('collie walky send local/s:%2 hi', 'wt_aaaaaaaaaaa1\n', log, { id: 's:%1', token: 'zzzz' })?.sent).toBeNull();
    // inbox <id>: the card of a message that reached this pane; not one for another pane.
    expect(walkyTool('collie walky inbox wt_bbbbbbbbbbb1', 'anything', log, A)?.read?.id).toBe('wt_bbbbbbbbbbb1');
    expect(walkyTool('collie walky inbox wt_cccccccccccc', '', log, A)?.read).toBeNull();
    expect(walkyTool('collie walky inbox', 'wt_bbbbbbbbbbb1', log, A)?.read).toBeNull();
  });

  it('never throws on any command or output (fast-check)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (input, output) => {
        const v = walkyTool(`collie walky ${input}`, output, log, A);
        expect(v).not.toBeNull();
        walkyTool(input, output, log, A);
      }),
      { numRuns: 500 },
    );
  });
});
