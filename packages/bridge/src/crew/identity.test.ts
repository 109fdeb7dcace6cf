import { X509Certificate, generateKeyPairSync } from 'node:crypto';
import { stat } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '@collie/testkit';
import { fingerprintOf, loadIdentity, readIdentity, selfSignedCertificate } from './identity';
import { pinnedTls } from './tls';

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

  it('serves TLS with the certificate; a client pinning its fingerprint connects, one pinning another is refused', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const cert = selfSignedCertificate(privateKey, publicKey, 'lead');
    const other = selfSignedCertificate(privateKey, publicKey, 'lead');
    const server = https.createServer({ key: privateKey.export({ format: 'pem', type: 'pkcs8' }), cert }, (_q, r) => r.end('hello'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const get = (pem: string) =>
      new Promise<string>((resolve, reject) => {
        const req = https.request({ host: '127.0.0.1', port, path: '/', agent: false, ...pinnedTls(pem) }, (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve(text));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      expect(await get(cert)).toBe('hello');
      expect(fingerprintOf(other)).not.toBe(fingerprintOf(cert));
      await expect(get(other)).rejects.toThrow();
    } finally {
      server.close();
    }
  });
});
