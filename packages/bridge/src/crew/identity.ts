/**
 * This machine's crew identity: one Ed25519 key (`node:crypto`) that signs every crew request,
 * and a self-signed certificate of the same key that the crew listener presents. Both live in
 * `<state>/crew/`, 0600, made once.
 */
import { X509Certificate, createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureStateDir, writeFileAtomic } from '../config';
import { certificate, tbsCertificate } from './der';
import { memo } from './memo';

export interface Identity {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** SPKI DER, base64url: what peers store and check signatures with. */
  publicKeyText: string;
  /** First 32 hex digits of SHA-256 over the SPKI DER. */
  keyId: string;
  /** PEM of the private key and certificate, for the TLS listener. */
  keyPem: string;
  certPem: string;
  /** SHA-256 of the certificate DER, hex: what an invite carries and a peer pins. */
  fingerprint: string;
}

export const crewDir = (stateDir: string) => join(stateDir, 'crew');

/** The key id of an SPKI DER. */
export function keyIdOf(spki: Buffer): string {
  return createHash('sha256').update(spki).digest('hex').slice(0, 32);
}

/** The key id of the key in a PEM certificate: the receiver a request to that peer names. */
export const keyIdOfCert = memo((certPem: string): string => keyIdOf(new X509Certificate(certPem).publicKey.export({ format: 'der', type: 'spki' })));

export const publicKeyFromText = memo((text: string): KeyObject => createPublicKey({ key: Buffer.from(text, 'base64url'), format: 'der', type: 'spki' }));

/** SHA-256 hex of a PEM certificate's DER. */
export const fingerprintOf = memo((certPem: string): string => createHash('sha256').update(new X509Certificate(certPem).raw).digest('hex'));

/** A self-signed certificate for `cn`, valid from a day ago for 20 years (pinned, so expiry adds nothing). */
export function selfSignedCertificate(privateKey: KeyObject, publicKey: KeyObject, cn: string, now = new Date()): string {
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f;
  const notBefore = new Date(now.getTime() - 86_400_000);
  const notAfter = new Date(now.getTime() + 20 * 365 * 86_400_000);
  const tbs = tbsCertificate({ serial, cn, notBefore, notAfter, spki });
  const der = certificate(tbs, sign(null, tbs, privateKey));
  return `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END CERTIFICATE-----\n`;
}

function build(keyPem: string, certPem: string): Identity {
  const privateKey = createPrivateKey(keyPem);
  const publicKey = createPublicKey(privateKey);
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  const cert = new X509Certificate(certPem);
  if (!cert.publicKey.export({ format: 'der', type: 'spki' }).equals(spki)) throw new Error('crew: identity.crt is not of identity.key');
  return { privateKey, publicKey, publicKeyText: spki.toString('base64url'), keyId: keyIdOf(spki), keyPem, certPem, fingerprint: fingerprintOf(certPem) };
}

/** Read this machine's identity, or null when it has none yet. */
export async function readIdentity(stateDir: string): Promise<Identity | null> {
  const dir = crewDir(stateDir);
  let keyPem: string;
  let certPem: string;
  try {
    [keyPem, certPem] = await Promise.all([readFile(join(dir, 'identity.key'), 'utf8'), readFile(join(dir, 'identity.crt'), 'utf8')]);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`crew: cannot read the identity in ${dir}: ${(err as Error).message}`, { cause: err });
  }
  return build(keyPem, certPem);
}

/** This machine's identity, made on first use (key first, so a crash leaves a key and no certificate, never the reverse). */
export async function loadIdentity(stateDir: string, cn: string): Promise<Identity> {
  const found = await readIdentity(stateDir);
  if (found) return found;
  const dir = crewDir(stateDir);
  await ensureStateDir(stateDir);
  await ensureStateDir(dir);
  let keyPem = await readFile(join(dir, 'identity.key'), 'utf8').catch(() => null);
  if (keyPem === null) {
    const { privateKey } = generateKeyPairSync('ed25519');
    keyPem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    await writeFileAtomic(join(dir, 'identity.key'), keyPem, 0o600);
  }
  const privateKey = createPrivateKey(keyPem);
  const certPem = selfSignedCertificate(privateKey, createPublicKey(privateKey), cn);
  await writeFileAtomic(join(dir, 'identity.crt'), certPem, 0o600);
  return build(keyPem, certPem);
}
