import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyBytes, pushSupport, type BrowserFacts } from './browser-push';

const facts = (over: Partial<BrowserFacts> = {}): BrowserFacts => ({ hasServiceWorker: true, hasPushManager: true, hasNotification: true, permission: 'default', secure: true, ios: false, standalone: false, ...over });

describe('push support, in words the Settings page shows', () => {
  it('an iPhone outside the Home Screen app, http, no push, blocked, ask, granted', () => {
    expect(pushSupport(facts({ ios: true, hasPushManager: false, hasNotification: false }))).toBe('needs-home-screen');
    expect(pushSupport(facts({ ios: true, standalone: true }))).toBe('ask');
    expect(pushSupport(facts({ secure: false }))).toBe('insecure');
    expect(pushSupport(facts({ hasPushManager: false }))).toBe('unsupported');
    expect(pushSupport(facts({ permission: 'denied' }))).toBe('denied');
    expect(pushSupport(facts())).toBe('ask');
    expect(pushSupport(facts({ permission: 'granted' }))).toBe('granted');
  });

  it('the application server key decodes to its bytes, for any key', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 100 }), (bytes) => {
        const b64url = btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
        expect([...keyBytes(b64url)]).toEqual([...bytes]);
      }),
    );
  });
});
