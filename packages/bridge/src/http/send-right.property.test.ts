import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeviceRightRequest, DevicesCommand, type StoredDevice } from '@collie/protocol';
import { WATCH_ONLY_WRITES, sendRight, watchOnlyMay } from './auth';

const device = (maySend: boolean): StoredDevice => ({ id: 'aaaaaaaaaaaa', name: 'wall', kind: 'browser', hash: '0'.repeat(64), pairedAt: 0, lastSeen: 0, revokedAt: null, maySend });
const safeDecode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
};
const segment = fc.stringMatching(/^[A-Za-z0-9%:._~-]{1,20}$/);
const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS');
const path = fc.oneof(
  fc.array(segment, { minLength: 0, maxLength: 6 }).map((s) => `/api/${s.join('/')}`),
  fc.tuple(fc.constantFrom(...WATCH_ONLY_WRITES.map((w) => w.path)), segment).map(([p, id]) => p.replace(':id', id)),
  fc.webPath(),
);

describe('the send right (http/auth.ts)', () => {
  it('reads always pass; a write passes a watch-only device only when the table lists it (its own id for self rows); a device that may send passes everything', () => {
    fc.assert(
      fc.property(method, path, (m, p) => {
        const listed = WATCH_ONLY_WRITES.some((w) => {
          if (w.method !== m) return false;
          const re = new RegExp(`^${w.path.replace(':id', '([^/]+)')}$`);
          const hit = re.exec(p);
          return hit !== null && (!w.self || safeDecode(hit[1]!) === 'aaaaaaaaaaaa');
        });
        const read = m === 'GET' || m === 'HEAD';
        expect(watchOnlyMay(m, p, 'aaaaaaaaaaaa')).toBe(read || listed);
        const refusal = sendRight({ kind: 'device', device: device(false) }, m, p);
        expect(refusal?.code ?? null).toBe(read || listed ? null : 'device_may_not_send');
        expect(sendRight({ kind: 'device', device: device(true) }, m, p)).toBeNull();
        expect(sendRight({ kind: 'proxy', login: 'me@example.com' }, m, p)).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it('a path that only looks like a listed one is refused: a prefix, a suffix, another segment, another device', () => {
    for (const p of ['/api/panes/x/seen/more', '/api/panes/seen', '/api/panes/x/y/seen', '/xapi/panes/x/seen', '/api/push/subscribe/', '/api/push/subscribeX', '/api/devices/bbbbbbbbbbbb/revoke', '/api/devices/aaaaaaaaaaaa/rename']) {
      expect(watchOnlyMay('POST', p, 'aaaaaaaaaaaa'), p).toBe(false);
    }
    expect(watchOnlyMay('POST', '/api/devices/aaaaaaaaaaaa/revoke', 'aaaaaaaaaaaa')).toBe(true);
    // A malformed escape names no device, and never throws (a throw would answer 500).
    expect(watchOnlyMay('POST', '/api/devices/%/revoke', 'aaaaaaaaaaaa')).toBe(false);
  });

  it('DeviceRightRequest takes exactly {maySend: boolean}; DevicesCommand set needs a name and a boolean', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const ok = DeviceRightRequest.safeParse(v).success;
        const shaped = typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 1 && typeof (v as Record<string, unknown>)['maySend'] === 'boolean';
        expect(ok).toBe(shaped);
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), fc.anything(), (name, maySend) => {
        const ok = DevicesCommand.safeParse({ op: 'set', name, maySend }).success;
        expect(ok).toBe(name.length >= 1 && name.length <= 100 && typeof maySend === 'boolean');
      }),
      { numRuns: 1000 },
    );
  });
});
