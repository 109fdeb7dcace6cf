import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WALKY_MAX_LINE } from '@collie/protocol';
import { parseAddress } from './address';
import { parseRequest } from './parse';

describe('parseRequest', () => {
  it('answers every line with a value, never a throw', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.anything().map((v) => JSON.stringify(v) ?? 'undefined')), (line) => {
        const r = parseRequest(line);
        if (!r.ok) expect(r.message).toMatch(/^walky: /);
      }),
      { numRuns: 2000 },
    );
  });

  it('takes the five verbs and refuses extra fields, a bad id, an oversized line', () => {
    const base = { v: 1, pid: 42 };
    expect(parseRequest(JSON.stringify({ ...base, verb: 'who' })).ok).toBe(true);
    expect(parseRequest(JSON.stringify({ ...base, verb: 'send', to: 'local/%1', body: 'hi', id: 'wt_abcdefghijkl' })).ok).toBe(true);
    expect(parseRequest(JSON.stringify({ ...base, verb: 'send', to: 'local/%1', body: 'hi', from: { kind: 'operator' } }))).toMatchObject({ ok: false, code: 'bad_request' });
    expect(parseRequest(JSON.stringify({ ...base, verb: 'status', id: 'wt_short' }))).toMatchObject({ ok: false, code: 'bad_request' });
    // How long the caller still waits: whole milliseconds, 0 to the bridge's own 15 s; never on who.
    expect(parseRequest(JSON.stringify({ ...base, verb: 'reply', to_id: 'wt_abcdefghijkl', body: 'hi', wait_ms: 0 })).ok).toBe(true);
    for (const wait_ms of [-1, 15_001, 1.5, '5000', null]) expect(parseRequest(JSON.stringify({ ...base, verb: 'send', to: 'local/%1', body: 'hi', wait_ms }))).toMatchObject({ ok: false, code: 'bad_request' });
    expect(parseRequest(JSON.stringify({ ...base, verb: 'who', wait_ms: 100 }))).toMatchObject({ ok: false, code: 'bad_request' });
    expect(parseRequest('{')).toMatchObject({ ok: false, code: 'bad_json' });
    expect(parseRequest('x'.repeat(WALKY_MAX_LINE + 1))).toMatchObject({ ok: false, code: 'too_large' });
  });

  it('valid requests survive a round trip', () => {
    const req = fc.record(
      { v: fc.constant(1 as const), pid: fc.integer({ min: 1, max: 4_000_000 }), verb: fc.constant('send' as const), to: fc.string({ minLength: 1, maxLength: 200 }), body: fc.string({ maxLength: 500 }), wait_ms: fc.integer({ min: 0, max: 15_000 }) },
      { requiredKeys: ['v', 'pid', 'verb', 'to', 'body'] },
    );
    fc.assert(
      fc.property(req, (r) => {
        expect(parseRequest(JSON.stringify(r))).toEqual({ ok: true, req: r });
      }),
    );
  });
});

describe('parseAddress', () => {
  it('reads panes, servers, tokens and broadcasts', () => {
    expect(parseAddress('local/%7#ab12')).toEqual({ kind: 'pane', member: 'local', server: 'default', tmuxId: '%7', token: 'ab12' });
    expect(parseAddress('local/work:%7')).toEqual({ kind: 'pane', member: 'local', server: 'work', tmuxId: '%7', token: null });
    expect(parseAddress('all')).toEqual({ kind: 'all', member: null });
    expect(parseAddress('minibuch/all')).toEqual({ kind: 'all', member: 'minibuch' });
    for (const bad of ['', '%7', 'local/', 'local/%x', 'local/%7#ABCD', 'local/%7#abc', '/%7', 'a b/%7']) expect(parseAddress(bad)).toBeNull();
  });

  it('never throws', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        parseAddress(s);
      }),
    );
  });
});
