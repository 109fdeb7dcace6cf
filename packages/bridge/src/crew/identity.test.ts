import { X509Certificate } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '@collie/testkit';
import { loadIdentity, readIdentity } from './identity';

// Serving TLS with the certificate is tested in packages/bridge/test/crew-identity-tls.test.ts.
describe('crew identity', () => {
  it('writes one Ed25519 key and a self-signed certificate of it, 0600 in a 0700 dir, and reads the same back', async () => {
    await using dir = await tempDir('collie-crew-id-');
    expect(await readIdentity(dir.path)).toBeNull();
    const made = await loadIdentity(dir.path, 'bluefin');
    for (const f of ['identity.key', 'identity.crt']) expect((await stat(join(dir.path, 'crew', f))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir.path, 'crew'))).mode & 0o777).toBe(0o700);
    const again = await loadIdentity(dir.path, 'other');
    expect(again.keyId).toBe(made.keyId);
    expect(again.fingerprint).toBe(made.fingerprint);
    expect(made.keyId).toMatch(/^[0-9a-f]{32}$/);
    const x = new X509Certificate(made.certPem);
    expect(x.subject).toBe('CN=bluefin');
    expect(x.verify(made.publicKey)).toBe(true);
    expect(x.checkIssued(x)).toBe(true);
    expect(made.publicKeyText).toMatch(/^[A-Za-z0-9_-]{59}$/);
  });
});
