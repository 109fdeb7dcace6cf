import { describe, expect, it } from 'vitest';
import { askedAgain } from './index';

describe('a request asked again after a restart', () => {
  const send = { v: 1 as const, pid: 7, verb: 'send' as const, to: 'local/%1#ab12', body: 'hi', id: 'wt_abcdefghijkl' };

  it('tells the bridge how long the sender still waits, less the time to answer, at most its 15 s', () => {
    expect(askedAgain(send, 25_000, 0)).toEqual({ ...send, wait_ms: 15_000 });
    expect(askedAgain(send, 25_000, 14_000)).toEqual({ ...send, wait_ms: 6_000 });
    const reply = { v: 1 as const, pid: 7, verb: 'reply' as const, to_id: 'wt_000000000000', body: 'ok', id: 'wt_abcdefghijkl' };
    expect(askedAgain(reply, 25_000, 20_000)).toEqual({ ...reply, wait_ms: 0 });
    expect(askedAgain(send, 25_000, 30_000)).toMatchObject({ wait_ms: 0 });
  });

  it('leaves the verbs that do not wait as they are', () => {
    const who = { v: 1 as const, pid: 7, verb: 'who' as const };
    expect(askedAgain(who, 25_000, 0)).toBe(who);
  });
});
