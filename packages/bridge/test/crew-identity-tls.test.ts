import { generateKeyPairSync } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fingerprintOf, selfSignedCertificate } from '../src/crew/identity';
import { pinnedTls } from '../src/crew/tls';

describe('crew identity over TLS', () => {
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
