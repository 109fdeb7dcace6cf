import { describe, expect, it } from 'vitest';
import { WalkyMessage, type WalkyState } from '@collie/protocol';
import { printAnswer } from './print';

const message = (state: WalkyState, reason: string | null) =>
  WalkyMessage.parse({
    v: 1,
    id: 'wt_k3f9x2m8q1a0',
    at: 1,
    from: { kind: 'agent', address: 'local/w54:p1B#sx56', paneId: 'w54:p1B', token: 'sx56', harness: 'claude', label: 'repo#main' },
    to: { address: 'local/w54:p1G#1adi', pane: 'local/w54:p1G', paneId: 'w54:p1G', token: '1adi', harness: 'claude', label: 'collie-workspace#fix-465' },
    asked: 'local/w54:p1G#1adi',
    replyTo: null,
    body: 'Tests are green.',
    state,
    reason,
    verified: 'local',
    read: false,
    updatedAt: 1,
  });

describe('what collie walky send prints and exits with, for each receipt state (the page\'s table)', () => {
  it.each([
    ['accepted', null, 0, ['queued', 'check later: collie walky status wt_k3f9x2m8q1a0']],
    ['delivered', null, 0, ['typed into the pane']],
    ['inbox-only', 'draft present', 0, ['waiting in the inbox, not typed: draft present']],
    ['refused', 'pane replaced', 4, ['not sent: pane replaced']],
    ['unknown', 'typed, not submitted', 1, ['may have arrived, will not be sent again (typed, not submitted)']],
  ] as const)('%s (%s): exit %i', (state, reason, code, words) => {
    const printed = printAnswer({ ok: true, verb: 'send', message: message(state, reason) }, false);
    expect(printed.code).toBe(code);
    expect(printed.out).toBe(['wt_k3f9x2m8q1a0', 'to local/w54:p1G#1adi, claude, collie-workspace#fix-465', ...words].join('\n') + '\n');
    const json = printAnswer({ ok: true, verb: 'send', message: message(state, reason) }, true);
    expect(json.code).toBe(code);
    expect(JSON.parse(json.out)).toMatchObject({ state, reason });
  });

  it('an unknown id exits 3, a refused proof 4, any other error 1, each with its words on stderr', () => {
    const err = (code: 'unknown_id' | 'not_proved' | 'not_in_pane' | 'internal', message: string) => printAnswer({ ok: false, verb: 'error', error: { code, message } }, false);
    expect(err('unknown_id', 'no record of wt_000000000000 on this machine')).toEqual({ out: '', err: 'no record of wt_000000000000 on this machine\n', code: 3 });
    expect(err('not_proved', 'walky: no process 9 on this machine').code).toBe(4);
    expect(err('not_in_pane', 'run this inside a pane').code).toBe(4);
    expect(err('internal', 'walky: the log could not be written').code).toBe(1);
  });

  it("a broadcast's status: the id, one line per pane with the sender's word, <member>/all for a machine that refused it whole", () => {
    const panes = [
      { pane: 'collie-04rj6a/w54:p1G', id: 'wt_k3f9x2m8q1a0', state: 'delivered' as const, reason: null, verified: 'local' as const },
      { pane: 'minibuch/all', member: 'minibuch', state: 'refused' as const, reason: 'off', verified: 'origin' as const, by: 'bluefin' },
    ];
    const printed = printAnswer({ ok: true, verb: 'status', broadcast: { id: 'wt_n2d8s1v7c4b9', panes } }, false);
    expect(printed).toEqual({ out: 'wt_n2d8s1v7c4b9\ncollie-04rj6a/w54:p1G  typed into the pane  (this machine)\nminibuch/all  not sent: off  (signed by bluefin)\n', err: '', code: 0 });
    expect(JSON.parse(printAnswer({ ok: true, verb: 'status', broadcast: { id: 'wt_n2d8s1v7c4b9', panes } }, true).out)).toEqual({ id: 'wt_n2d8s1v7c4b9', panes });
  });
});
