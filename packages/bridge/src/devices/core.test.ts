import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PairingCode } from '@collie/protocol';
import { OFFER_MS, addDevice, createOffer, emptyState, nameFromUserAgent, redeem, rename, revoke } from './core';
import { LOCK_MS, MAX_WRONG_CODES, lockedUntil, recordWrongCode, OPEN_LOCK } from './lockout';

const random = (n: number) => randomBytes(n);
const T0 = 1_800_000_000_000;

function offered() {
  const { state, offer } = createOffer(emptyState(random), T0, random);
  return { state, offer };
}

describe('pairing offers', () => {
  it('a code or its link pairs once; a replay is refused as used, a late one as expired', () => {
    const { state, offer } = offered();
    const byLink = redeem(state, { token: offer.token }, T0 + 1000);
    expect(byLink.ok).toBe(true);
    const again = redeem(byLink.state, { token: offer.token }, T0 + 2000);
    expect(again).toMatchObject({ ok: false, reason: 'used' });
    // The code of the same offer is spent with it.
    expect(redeem(byLink.state, { code: offer.code }, T0 + 2000)).toMatchObject({ ok: false, reason: 'used' });

    const late = offered();
    expect(redeem(late.state, { code: late.offer.code }, T0 + OFFER_MS)).toMatchObject({ ok: false, reason: 'expired' });
    expect(redeem(late.state, { token: late.offer.token }, T0 + OFFER_MS + 1)).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('a link token from another state dir is unknown here', () => {
    const here = offered();
    const there = offered();
    expect(redeem(here.state, { token: there.offer.token }, T0)).toMatchObject({ ok: false, reason: 'unknown_link' });
  });

  it('5 wrong codes lock code pairing for 10 minutes, even for the right code; then it opens again', () => {
    let { state } = offered();
    const { offer } = offered();
    const right = createOffer(state, T0, random);
    state = right.state;
    for (let i = 1; i < MAX_WRONG_CODES; i++) {
      const out = redeem(state, { code: 'ZZZZZZZZ' }, T0 + i);
      expect(out).toMatchObject({ ok: false, reason: 'wrong_code', triesLeft: MAX_WRONG_CODES - i });
      state = out.state;
    }
    const fifth = redeem(state, { code: 'ZZZZZZZZ' }, T0 + 10);
    expect(fifth).toMatchObject({ ok: false, reason: 'locked', lockedUntil: T0 + 10 + LOCK_MS });
    state = fifth.state;
    expect(redeem(state, { code: right.offer.code }, T0 + 20)).toMatchObject({ ok: false, reason: 'locked' });
    expect(offer.code).not.toBe(right.offer.code);
    // Once the lock has run out, a code pairs again.
    const fresh = createOffer(state, T0 + 10 + LOCK_MS, random);
    expect(redeem(fresh.state, { code: fresh.offer.code }, T0 + 11 + LOCK_MS).ok).toBe(true);
  });

  it('wrong codes spread over more than the window do not add up', () => {
    let lock = OPEN_LOCK;
    for (let i = 0; i < 20; i++) lock = recordWrongCode(lock, T0 + i * 3 * 60_000);
    expect(lockedUntil(lock, T0 + 60 * 60_000)).toBeNull();
  });

  it('stores only hashes: no token or code appears in the state', () => {
    const { state, offer } = offered();
    const added = addDevice(state, { name: 'ci', kind: 'token' }, T0, random);
    const text = JSON.stringify(added.state);
    for (const secret of [offer.token, offer.code, added.token]) expect(text).not.toContain(secret);
    expect(added.token).toMatch(/^cd1_[A-Za-z0-9_-]{43}$/);
  });
});

describe('devices', () => {
  it('names stay unique among active devices; revoke keeps the record, marked', () => {
    let s = emptyState(random);
    const a = addDevice(s, { name: 'Safari on iPhone', kind: 'browser' }, T0, random);
    const b = addDevice(a.state, { name: 'Safari on iPhone', kind: 'browser' }, T0, random);
    expect(b.device.name).toBe('Safari on iPhone 2');
    expect(rename(b.state, b.device.id, 'safari on iphone')).toBeNull();
    s = revoke(b.state, a.device.id, T0 + 5);
    expect(s.devices.find((d) => d.id === a.device.id)?.revokedAt).toBe(T0 + 5);
    expect(rename(s, b.device.id, 'Safari on iPhone')).not.toBeNull();
  });

  it('names a browser from its User-Agent', () => {
    expect(nameFromUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1')).toBe('Safari on iPhone');
    expect(nameFromUserAgent('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36')).toBe('Chrome on Android');
    expect(nameFromUserAgent(undefined)).toBe('Browser');
  });
});

describe('the pairing code parser', () => {
  it('takes any case, dashes and spaces; refuses the rest without throwing', () => {
    expect(PairingCode.parse(' 7kq2-m9xd ')).toBe('7KQ2M9XD');
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => {
        const r = PairingCode.safeParse(s);
        if (r.success) expect(r.data).toMatch(/^[23456789A-HJ-NP-Z]{8}$/);
      }),
    );
  });
});
