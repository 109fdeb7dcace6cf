import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WalkyAnswer, type WalkyMessage } from './walky';
import { isWalkyAnswer } from './walky-words';

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
