import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WalkyAnswer, type WalkyMessage } from './walky';
import { broadcastLines, isWalkyAnswer, walkyWords } from './walky-words';

const message: WalkyMessage = {
  v: 1,
  id: 'wt_k3f9x2m8q1a0',
  at: 1,
  from: { kind: 'agent', address: 'local/%1#aaaa', paneId: 'default:%1', token: 'aaaa', harness: 'claude', label: 'repo#main' },
  to: { paneId: 'default:%2', pane: 'local/%2', address: 'local/%2#bbbb', token: 'bbbb', harness: 'claude', label: 'repo#fix' },
  asked: 'local/%2#bbbb',
  replyTo: null,
  body: 'hi',
  state: 'delivered',
  reason: null,
  verified: 'local',
  read: false,
  updatedAt: 1,
};
const answers: unknown[] = [
  { ok: true, verb: 'who', machine: 'm', you: null, panes: [{ address: 'local/%1#aaaa', machine: 'm', harness: 'claude', label: 'l', state: 'idle', you: true }] },
  { ok: true, verb: 'send', message },
  { ok: true, verb: 'status', message: { ...message, to: null, state: 'refused', reason: 'pane replaced' } },
  { ok: true, verb: 'inbox', messages: [message, { ...message, from: { kind: 'operator', device: 'phone' } }] },
  { ok: false, verb: 'error', error: { code: 'unknown_id', message: 'no record' } },
  { ok: true, verb: 'status', broadcast: { id: 'wt_n2d8s1v7c4b9', panes: [{ pane: 'local/%2', id: 'wt_k3f9x2m8q1a0', state: 'delivered', reason: null, verified: 'local' }, { pane: 'minibuch/all', member: 'minibuch', state: 'refused', reason: 'off', verified: 'origin', by: 'bluefin' }] } },
];

describe("the CLI's answer check, without the schema library", () => {
  it('accepts every answer the schema accepts', () => {
    for (const a of answers) {
      expect(WalkyAnswer.safeParse(a).success).toBe(true);
      expect(isWalkyAnswer(a)).toBe(true);
    }
  });

  it('rejects an answer missing or mistyping a field it prints, and never throws', () => {
    const broken: unknown[] = [
      { ok: true, verb: 'send', message: { ...message, state: 'typed' } },
      { ok: true, verb: 'send', message: { ...message, to: { paneId: 1 } } },
      { ok: true, verb: 'who', machine: 'm', you: null, panes: [{}] },
      { ok: true, verb: 'inbox', messages: 'x' },
      { ok: true, verb: 'status', broadcast: { id: 'wt_n2d8s1v7c4b9', panes: [{ pane: 'local/all', state: 'gone', reason: null, verified: 'local' }] } },
      { ok: true, verb: 'status' },
      { ok: false, verb: 'error' },
      { ok: true, verb: 'nope' },
      null,
      [],
    ];
    for (const b of broken) expect(isWalkyAnswer(b)).toBe(false);
    fc.assert(
      fc.property(fc.anything(), (v) => {
        const checked = isWalkyAnswer(v);
        if (WalkyAnswer.safeParse(v).success) expect(checked).toBe(true);
      }),
    );
  });
});

describe("a broadcast's status lines", () => {
  const part = (pane: string, member: string | undefined, state: WalkyMessage['state'], reason: string | null, id: string): WalkyMessage => ({
    ...message,
    id,
    from: { kind: 'operator', device: 'phone', member: 'bluefin' },
    to: { ...message.to!, pane, paneId: member ? `@${member}/x:${pane}` : `x:${pane}`, ...(member ? { member } : {}) },
    state,
    reason,
    broadcast: 'wt_n2d8s1v7c4b9',
  });

  it('one line per pane; a machine that refused it whole for a machine-wide reason is one <member>/all line', () => {
    const lines = broadcastLines(
      [
        part('collie-04rj6a/w54:p1G', undefined, 'delivered', null, 'wt_aaaaaaaaaaa1'),
        part('minibuch/w11:p4', 'minibuch', 'refused', 'off', 'wt_aaaaaaaaaaa2'),
        part('minibuch/w11:p5', 'minibuch', 'refused', 'off', 'wt_aaaaaaaaaaa3'),
        part('attic/%1', 'attic', 'refused', 'older member', 'wt_aaaaaaaaaaa4'),
        part('workshop/%1', 'workshop', 'unknown', 'member slow', 'wt_aaaaaaaaaaa5'),
        part('workshop/%2', 'workshop', 'refused', 'pane replaced', 'wt_aaaaaaaaaaa6'),
      ],
      'collie-04rj6a',
    );
    expect(lines.map((l) => `${l.pane}  ${walkyWords(l.state, l.reason)}`)).toEqual([
      'attic/all  not sent: older member',
      'collie-04rj6a/w54:p1G  typed into the pane',
      'minibuch/all  not sent: off',
      'workshop/%1  may have arrived, will not be sent again (member slow)',
      'workshop/%2  not sent: pane replaced',
    ]);
    expect(lines[0]).toMatchObject({ member: 'attic', by: 'bluefin' });
    expect(lines[0]!.id).toBeUndefined();
  });

  it('a pane-level refusal never folds, and every message is on exactly one line', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ member: fc.constantFrom(undefined, 'minibuch', 'attic'), refused: fc.constantFrom(null, 'off', 'pane replaced', 'older member') }), { maxLength: 12 }),
        (rows) => {
          const ms = rows.map((r, i) => part(`${r.member ?? 'local'}/%${i}`, r.member, r.refused ? 'refused' : 'delivered', r.refused, `wt_${String(i).padStart(12, '0')}`));
          const lines = broadcastLines(ms, 'local');
          const perPane = lines.filter((l) => l.id !== undefined).length;
          const folded = lines.filter((l) => l.pane.endsWith('/all'));
          for (const f of folded) expect(['off', 'older member']).toContain(f.reason);
          const machines = new Set(folded.map((f) => f.pane.slice(0, -4)));
          expect(perPane + ms.filter((m) => machines.has(m.to!.member ?? 'local')).length).toBe(ms.length);
          expect(lines.some((l) => l.reason === 'pane replaced' && l.id === undefined)).toBe(false);
        },
      ),
    );
  });
});
