import { generateKeyPairSync, sign } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CREW_WINDOW_MS, CrewDown, CrewUp, JoinRequest, formatSignatureHeader, parseListen, parseSignatureHeader, signedText } from '@collie/protocol';
import { keyIdOf } from './identity';
import { decodeInvite, encodeInvite } from './invite-token';
import { bodyHash, ReplayMemory, signRequest, verifyRequest, type KeyStanding } from './sign';

const pair = () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey, keyId: keyIdOf(publicKey.export({ format: 'der', type: 'spki' })) };
};
const member = pair();
const stranger = pair();
const lookup = (id: string): KeyStanding => (id === member.keyId ? { status: 'member', key: member.publicKey, name: 'minibuch' } : null);
const NOW = 1_796_000_000_000;
/** The receiver: a member (it takes no v1 signature). */
const ME = { keyId: pair().keyId, unbound: false };

const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE');
const path = fc.string({ maxLength: 80 }).map((s) => `/crew/v1/${encodeURIComponent(s)}`);
const body = fc.oneof(fc.string({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }));

describe('the crew signature check', () => {
  it('accepts every request signed by a member, once', () => {
    fc.assert(
      fc.property(method, path, body, fc.integer({ min: -CREW_WINDOW_MS, max: CREW_WINDOW_MS }), (m, p, b, skew) => {
        const header = signRequest({ key: member.privateKey, keyId: member.keyId, to: ME.keyId, method: m, path: p, body: b, now: NOW + skew });
        const replay = new ReplayMemory();
        expect(verifyRequest({ method: m, path: p, body: b, header }, lookup, replay, NOW, ME)).toEqual({ ok: true, keyId: member.keyId, name: 'minibuch' });
        const again = verifyRequest({ method: m, path: p, body: b, header }, lookup, replay, NOW, ME);
        expect(again.ok ? 'ok' : again.refusal).toBe('replay');
      }),
      { numRuns: 150 },
    );
  });

  it('refuses a request whose method, path or body changed after signing (bad_signature)', () => {
    fc.assert(
      fc.property(method, path, fc.string({ maxLength: 200 }), fc.constantFrom('method', 'path', 'body'), fc.string({ minLength: 1, maxLength: 10 }), (m, p, b, what, extra) => {
        const header = signRequest({ key: member.privateKey, keyId: member.keyId, to: ME.keyId, method: m, path: p, body: b, now: NOW });
        const changed = { method: what === 'method' ? (m === 'GET' ? 'POST' : 'GET') : m, path: what === 'path' ? p + extra : p, body: what === 'body' ? b + extra : b, header };
        const r = verifyRequest(changed, lookup, new ReplayMemory(), NOW, ME);
        expect(r.ok ? 'ok' : r.refusal).toBe('bad_signature');
      }),
      { numRuns: 150 },
    );
  });

  it('refuses a forged signature: a stranger signing with the member key id, or flipped signature bits', () => {
    fc.assert(
      fc.property(path, body, fc.nat(63), (p, b, bit) => {
        const forged = signRequest({ key: stranger.privateKey, keyId: member.keyId, to: ME.keyId, method: 'POST', path: p, body: b, now: NOW });
        const r1 = verifyRequest({ method: 'POST', path: p, body: b, header: forged }, lookup, new ReplayMemory(), NOW, ME);
        expect(r1.ok ? 'ok' : r1.refusal).toBe('bad_signature');
        const good = parseSignatureHeader(signRequest({ key: member.privateKey, keyId: member.keyId, to: ME.keyId, method: 'POST', path: p, body: b, now: NOW }))!;
        const sig = Buffer.from(good.sig, 'base64url');
        sig[bit >> 3] = sig[bit >> 3]! ^ (1 << (bit & 7));
        const flipped = formatSignatureHeader({ ...good, sig: sig.toString('base64url') });
        const r2 = verifyRequest({ method: 'POST', path: p, body: b, header: flipped }, lookup, new ReplayMemory(), NOW, ME);
        expect(r2.ok ? 'ok' : r2.refusal).toBe('bad_signature');
      }),
      { numRuns: 100 },
    );
  });

  it('refuses a clock more than 10 minutes off either way (stale), a removed member (removed) and an unknown key', () => {
    fc.assert(
      fc.property(fc.integer({ min: CREW_WINDOW_MS + 1, max: 10 * CREW_WINDOW_MS }), fc.boolean(), (off, ahead) => {
        const header = signRequest({ key: member.privateKey, keyId: member.keyId, to: ME.keyId, method: 'GET', path: '/crew/v1/stream', body: '', now: NOW + (ahead ? off : -off) });
        const r = verifyRequest({ method: 'GET', path: '/crew/v1/stream', body: '', header }, lookup, new ReplayMemory(), NOW, ME);
        expect(r.ok ? 'ok' : r.refusal).toBe('stale');
      }),
    );
    const header = signRequest({ key: member.privateKey, keyId: member.keyId, to: ME.keyId, method: 'GET', path: '/x', body: '', now: NOW });
    const removed = verifyRequest({ method: 'GET', path: '/x', body: '', header }, () => ({ status: 'removed', name: 'minibuch' }), new ReplayMemory(), NOW, ME);
    expect(removed).toMatchObject({ ok: false, refusal: 'removed', message: 'crew: removed: minibuch was removed from this crew' });
    const unknown = verifyRequest({ method: 'GET', path: '/x', body: '', header: signRequest({ key: stranger.privateKey, keyId: stranger.keyId, to: ME.keyId, method: 'GET', path: '/x', body: '', now: NOW }) }, lookup, new ReplayMemory(), NOW, ME);
    expect(unknown.ok ? 'ok' : unknown.refusal).toBe('unknown_key');
  });

  it('refuses a request signed for another machine (misdirected) without burning its nonce; a v1 (unbound) one on a member, not on a lead', () => {
    fc.assert(
      fc.property(method, path, body, (m, p, b) => {
        const other = pair().keyId;
        const header = signRequest({ key: member.privateKey, keyId: member.keyId, to: other, method: m, path: p, body: b, now: NOW });
        const replay = new ReplayMemory();
        const r = verifyRequest({ method: m, path: p, body: b, header }, lookup, replay, NOW, ME);
        expect(r).toMatchObject({ ok: false, refusal: 'misdirected', from: 'minibuch' });
        // The machine it was signed for still takes it once.
        expect(verifyRequest({ method: m, path: p, body: b, header }, lookup, replay, NOW, { keyId: other, unbound: false }).ok).toBe(true);
        // The same request re-labelled for this machine fails its signature.
        const parts = parseSignatureHeader(header)!;
        const relabelled = formatSignatureHeader({ ...parts, to: ME.keyId });
        const forged = verifyRequest({ method: m, path: p, body: b, header: relabelled }, lookup, new ReplayMemory(), NOW, ME);
        expect(forged.ok ? 'ok' : forged.refusal).toBe('bad_signature');
        // Stripped of its receiver (v1): the signature no longer holds either.
        const { to: _to, ...bare } = parts;
        const stripped = verifyRequest({ method: m, path: p, body: b, header: formatSignatureHeader(bare) }, lookup, new ReplayMemory(), NOW, { keyId: ME.keyId, unbound: true });
        expect(stripped.ok ? 'ok' : stripped.refusal).toBe('bad_signature');
      }),
      { numRuns: 100 },
    );
    // A v1 header, as bridges signed before: refused on a member, taken on a lead.
    const v1 = (nonce: string) => formatSignatureHeader({ key: member.keyId, ts: NOW, nonce, sig: sign(null, Buffer.from(signedText('GET', '/x', bodyHash(''), NOW, nonce, member.keyId), 'utf8'), member.privateKey).toString('base64url') });
    expect(verifyRequest({ method: 'GET', path: '/x', body: '', header: v1('BBBBBBBBBBBBBBBBBBBBBB') }, lookup, new ReplayMemory(), NOW, ME)).toMatchObject({ ok: false, refusal: 'unbound' });
    expect(verifyRequest({ method: 'GET', path: '/x', body: '', header: v1('CCCCCCCCCCCCCCCCCCCCCC') }, lookup, new ReplayMemory(), NOW, { ...ME, unbound: true }).ok).toBe(true);
  });

  it('a forged request does not burn the nonce of the real one', () => {
    const real = signRequest({ key: member.privateKey, keyId: member.keyId, to: ME.keyId, method: 'POST', path: '/a', body: 'x', now: NOW, nonce: 'AAAAAAAAAAAAAAAAAAAAAA' });
    const forged = signRequest({ key: stranger.privateKey, keyId: member.keyId, to: ME.keyId, method: 'POST', path: '/a', body: 'x', now: NOW, nonce: 'AAAAAAAAAAAAAAAAAAAAAA' });
    const replay = new ReplayMemory();
    expect(verifyRequest({ method: 'POST', path: '/a', body: 'x', header: forged }, lookup, replay, NOW, ME).ok).toBe(false);
    expect(verifyRequest({ method: 'POST', path: '/a', body: 'x', header: real }, lookup, replay, NOW, ME).ok).toBe(true);
  });

  it('a replay memory carried across a restart still refuses the replay; entries older than the window go', () => {
    const header = signRequest({ key: member.privateKey, keyId: member.keyId, to: ME.keyId, method: 'GET', path: '/x', body: '', now: NOW });
    const first = new ReplayMemory();
    expect(verifyRequest({ method: 'GET', path: '/x', body: '', header }, lookup, first, NOW, ME).ok).toBe(true);
    const restarted = new ReplayMemory(first.entries());
    const r = verifyRequest({ method: 'GET', path: '/x', body: '', header }, lookup, restarted, NOW + 1000, ME);
    expect(r.ok ? 'ok' : r.refusal).toBe('replay');
    restarted.prune(NOW + CREW_WINDOW_MS + 1);
    expect(restarted.entries()).toEqual([]);
  });
});

describe('crew wire parsers take any input without throwing', () => {
  it('the signature header: arbitrary strings parse to null or to parts that format back to the same text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 500 }), fc.constant(undefined), fc.constant(null)), (s) => {
        const p = parseSignatureHeader(s);
        if (p) expect(formatSignatureHeader(p)).toBe(s);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{32}$/), fc.nat({ max: 10 ** 14 }), fc.stringMatching(/^[A-Za-z0-9_-]{22}$/), fc.stringMatching(/^[A-Za-z0-9_-]{86}$/), (key, ts, nonce, sig) => {
        expect(parseSignatureHeader(formatSignatureHeader({ key, ts, nonce, sig }))).toEqual({ key, ts, nonce, sig });
      }),
    );
  });

  it('invite tokens: any string decodes or says why not; a made token decodes to its payload', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.string({ maxLength: 300 }).map((s) => `cj1_${s}`), fc.jsonValue().map((j) => `cj1_${Buffer.from(JSON.stringify(j) ?? '').toString('base64url')}`)), (s) => {
        const r = decodeInvite(s);
        if (!r.ok) expect(r.error).toMatch(/^not a crew invite: /);
      }),
      { numRuns: 500 },
    );
    const payload = { v: 1 as const, crew: 'collie-4rj6a0', lead: '100.64.0.2:7443', fp: 'a'.repeat(64), secret: 'b'.repeat(43), expires: NOW };
    expect(decodeInvite(encodeInvite(payload))).toEqual({ ok: true, value: payload });
    expect(decodeInvite(encodeInvite(payload).slice(0, -5)).ok).toBe(false);
  });

  it('--listen addresses: never throws; refuses every-address binds; round-trips what it accepts', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => {
        const r = parseListen(s);
        if (r.ok) expect(r.value.port).toBeGreaterThan(0);
        else expect(r.error).toContain('--listen');
      }),
      { numRuns: 500 },
    );
    expect(parseListen('100.64.0.2:7443')).toEqual({ ok: true, value: { host: '100.64.0.2', port: 7443 } });
    expect(parseListen('[fd7a::2]:7443')).toEqual({ ok: true, value: { host: 'fd7a::2', port: 7443 } });
    expect(parseListen('0.0.0.0:7443')).toMatchObject({ ok: false, error: expect.stringContaining('never binds every address') });
    expect(parseListen('300.1.1.1:7443').ok).toBe(false);
    expect(parseListen('box:0').ok).toBe(false);
  });

  it('stream frames and the join request: any JSON is parsed or refused, never thrown on', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (j) => {
        for (const schema of [CrewUp, CrewDown, JoinRequest]) expect(() => schema.safeParse(j)).not.toThrow();
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.record({ type: fc.constantFrom('request', 'ping', 'hello', 'event', 'reply'), op: fc.constantFrom('send', 'keys', 'answer', 'rm'), pane: fc.string(), body: fc.jsonValue(), at: fc.anything() }, { requiredKeys: ['type'] }), (j) => {
        expect(() => CrewDown.safeParse(j)).not.toThrow();
        expect(() => CrewUp.safeParse(j)).not.toThrow();
      }),
      { numRuns: 300 },
    );
    expect(CrewDown.safeParse({ type: 'request', op: 'send', pane: '%1', body: { text: 'hi', request_id: 'r1' } }).success).toBe(true);
    expect(CrewDown.safeParse({ type: 'request', op: 'send', pane: '%1', body: { text: 'hi', request_id: 'r1', extra: 1 } }).success).toBe(false);
  });
});
