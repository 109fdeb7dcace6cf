/**
 * TLS to a crew peer, pinned by certificate: the peer's own self-signed certificate is the only
 * trust anchor, and its SHA-256 must be the one pinned. Host names play no part: a member
 * reaches its lead by whatever address the user's network gives it.
 */
import { createHash, X509Certificate } from 'node:crypto';
import type { PeerCertificate, SecureContext } from 'node:tls';
import tls from 'node:tls';
import { memo } from './memo';

const hex = (der: Buffer) => createHash('sha256').update(der).digest('hex');

/**
 * Options for https.request / tls.connect / ws that accept only `certPem`. The options of a
 * certificate are made once: its context (the certificate as the only trust anchor) serves
 * every connection to that peer, where a `ca` option would be parsed again for each.
 */
export const pinnedTls = memo((certPem: string): { secureContext: SecureContext; checkServerIdentity: (host: string, cert: PeerCertificate) => Error | undefined } => {
  const want = hex(new X509Certificate(certPem).raw);
  return {
    secureContext: tls.createSecureContext({ ca: certPem }),
    checkServerIdentity: (_host, cert) => (cert.raw && hex(cert.raw) === want ? undefined : new Error('crew: the peer presented another certificate than the one pinned')),
  };
});

/**
 * Fetch a peer's certificate and check it against `fingerprint` (from an invite) before any
 * request is sent: a handshake only, no application data.
 */
export function fetchPinnedCertificate(host: string, port: number, fingerprint: string, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host, port, rejectUnauthorized: false, ...(host.includes(':') || /^[\d.]+$/.test(host) ? {} : { servername: host }) });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`crew: ${host}:${port} did not answer in ${timeoutMs / 1000} s`));
    }, timeoutMs);
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      const cert = socket.getPeerCertificate(false);
      socket.end();
      if (!cert.raw) return reject(new Error('crew: the lead presented no certificate'));
      if (hex(cert.raw) !== fingerprint) return reject(Object.assign(new Error(`crew: the certificate at ${host}:${port} is not the lead's (the invite pins another); nothing was sent`), { code: 'fingerprint_mismatch' }));
      resolve(new X509Certificate(cert.raw).toString());
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`crew: cannot reach ${host}:${port}: ${err.message}`, { cause: err }));
    });
  });
}
