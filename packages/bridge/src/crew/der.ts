/**
 * Just enough DER (X.690) to write one self-signed Ed25519 certificate: Node 20 reads X.509
 * (`X509Certificate`) but cannot make one, and the crew needs no other certificate tool.
 */
const OID_ED25519 = [0x06, 0x03, 0x2b, 0x65, 0x70]; // 1.3.101.112 (RFC 8410)
const OID_CN = [0x06, 0x03, 0x55, 0x04, 0x03]; // 2.5.4.3

function length(n: number): number[] {
  if (n < 0x80) return [n];
  const out: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) out.unshift(v & 0xff);
  return [0x80 | out.length, ...out];
}

export function tlv(tag: number, content: Uint8Array | number[]): Buffer {
  const body = Buffer.from(content);
  return Buffer.concat([Buffer.from([tag, ...length(body.length)]), body]);
}

export const seq = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => tlv(0x31, Buffer.concat(parts));

/** A positive INTEGER from big-endian bytes (a leading 0 keeps the sign bit clear). */
export function integer(bytes: Uint8Array): Buffer {
  let b = Buffer.from(bytes);
  while (b.length > 1 && b[0] === 0 && (b[1]! & 0x80) === 0) b = b.subarray(1);
  if ((b[0]! & 0x80) !== 0) b = Buffer.concat([Buffer.from([0]), b]);
  return tlv(0x02, b);
}

/** GeneralizedTime, as RFC 5280 asks for dates from 2050 on (and allows before). */
function time(d: Date): Buffer {
  const iso = d.toISOString(); // 2026-12-04T13:53:02.000Z
  const text = iso.slice(0, 4) + iso.slice(5, 7) + iso.slice(8, 10) + iso.slice(11, 13) + iso.slice(14, 16) + iso.slice(17, 19) + 'Z';
  const utc = d.getUTCFullYear() < 2050;
  return tlv(utc ? 0x17 : 0x18, Buffer.from(utc ? text.slice(2) : text, 'ascii'));
}

const name = (cn: string) => seq(set(seq(Buffer.from(OID_CN), tlv(0x0c, Buffer.from(cn, 'utf8')))));
const algorithm = () => seq(Buffer.from(OID_ED25519));

/** The to-be-signed part of an X.509 v3 certificate whose issuer is its subject. */
export function tbsCertificate(o: { serial: Uint8Array; cn: string; notBefore: Date; notAfter: Date; spki: Buffer }): Buffer {
  return seq(
    tlv(0xa0, integer(Uint8Array.of(2))), // [0] EXPLICIT version v3
    integer(o.serial),
    algorithm(),
    name(o.cn),
    seq(time(o.notBefore), time(o.notAfter)),
    name(o.cn),
    o.spki,
  );
}

/** The certificate: TBS, the algorithm again, and the signature as a BIT STRING. */
export function certificate(tbs: Buffer, signature: Buffer): Buffer {
  return seq(tbs, algorithm(), tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
}
