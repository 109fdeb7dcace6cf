/** One signed HTTPS request to a crew peer, its certificate pinned. */
import https from 'node:https';
import { SIGNATURE_HEADER, parseListen } from '@collie/protocol';
import { keyIdOfCert, type Identity } from './identity';
import { signRequest } from './sign';
import { pinnedTls } from './tls';

export interface CrewReply {
  status: number;
  json: unknown;
}

export const pemOfDer = (der: string) => `-----BEGIN CERTIFICATE-----\n${Buffer.from(der, 'base64url').toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END CERTIFICATE-----\n`;

/** Headers of a signed request (also the WebSocket upgrade's), for the machine whose key id is `to`. */
export function signedHeaders(id: Identity, method: string, path: string, body: string, to: string, now?: number): Record<string, string> {
  return { [SIGNATURE_HEADER]: signRequest({ key: id.privateKey, keyId: id.keyId, to, method, path, body, ...(now === undefined ? {} : { now }) }) };
}

/**
 * POST or GET `path` at `listen`, signed by `id` for the key in `certPem`, trusting only `certPem`. Network failures
 * reject with a sentence; any HTTP answer resolves.
 */
export function crewRequest(o: { id: Identity; certPem: string; listen: string; method: 'GET' | 'POST'; path: string; body?: unknown; timeoutMs?: number; now?: number }): Promise<CrewReply> {
  const at = parseListen(o.listen);
  if (!at.ok) return Promise.reject(new Error(`crew: ${at.error}`));
  const body = o.body === undefined ? '' : JSON.stringify(o.body);
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: at.value.host,
        port: at.value.port,
        method: o.method,
        path: o.path,
        agent: false,
        timeout: o.timeoutMs ?? 10_000,
        headers: { ...signedHeaders(o.id, o.method, o.path, body, keyIdOfCert(o.certPem), o.now), ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}) },
        ...pinnedTls(o.certPem),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown = null;
          try {
            json = text ? JSON.parse(text) : null;
          } catch {
            json = null;
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${o.listen} in ${(o.timeoutMs ?? 10_000) / 1000} s`)));
    req.on('error', (err) => reject(new Error(`crew: cannot reach ${o.listen}: ${err.message}`, { cause: err })));
    req.end(body);
  });
}
