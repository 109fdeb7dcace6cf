/**
 * Which local user opened a TCP connection: the owner uid of the peer's socket, from the texts
 * of `/proc/net/tcp` and `/proc/net/tcp6` (the caller reads them: this package imports no
 * node:*). Every process on a machine connects from loopback, so this, not the address, tells
 * one local user from another. The bridge checks a proxy's login with it, a durable agent
 * served on a TCP port its callers.
 */

/** One socket of `/proc/net/tcp{,6}`: its two ends as `address:port` keys (see `endpointKey`), and its owner. */
export interface SocketRow {
  local: string;
  remote: string;
  uid: number;
}

/** An address in /proc's hex (each 32-bit word in host order) as its bytes, or null. */
function procAddressBytes(hex: string, little: boolean): number[] | null {
  if (!/^(?:[0-9A-Fa-f]{8}){1}$|^(?:[0-9A-Fa-f]{8}){4}$/.test(hex)) return null;
  const bytes: number[] = [];
  for (let w = 0; w < hex.length; w += 8) {
    const word = [0, 2, 4, 6].map((i) => parseInt(hex.slice(w + i, w + i + 2), 16));
    bytes.push(...(little ? word.reverse() : word));
  }
  return bytes;
}

/** 4 or 16 bytes as one key; an IPv4-mapped IPv6 address is its IPv4 address. */
function bytesKey(bytes: readonly number[]): string {
  const mapped = bytes.length === 16 && bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  const b = mapped ? bytes.slice(12) : bytes;
  return b.map((x) => x.toString(16).padStart(2, '0')).join('');
}

/** An IPv4 or IPv6 address as Node writes it (`127.0.0.1`, `::1`, `::ffff:127.0.0.1`) as its bytes, or null. */
function textAddressBytes(address: string): number[] | null {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (v4) {
    const b = v4.slice(1).map(Number);
    return b.every((x) => x <= 255) ? b : null;
  }
  const zoneless = address.replace(/%.*$/, '');
  if (!/^[0-9A-Fa-f:.]+$/.test(zoneless)) return null;
  let tail: number[] = [];
  let text = zoneless;
  const dotted = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(zoneless);
  if (dotted) {
    const b = textAddressBytes(dotted[2]!);
    if (!b) return null;
    tail = b;
    text = `${dotted[1]}0:0`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (!all.every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g))) return null;
  const bytes = all.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** `address:port` as one comparable key, or null when the address is not one. */
export function endpointKey(address: string, port: number): string | null {
  const bytes = textAddressBytes(address);
  return bytes && Number.isInteger(port) && port >= 0 && port <= 65535 ? `${bytesKey(bytes)}:${port}` : null;
}

/** `0100007F:1F90` (a /proc end) as a key, or null. */
function procEndpointKey(field: string, little: boolean): string | null {
  const m = /^([0-9A-Fa-f]+):([0-9A-Fa-f]{4})$/.exec(field);
  if (!m) return null;
  const bytes = procAddressBytes(m[1]!, little);
  return bytes ? `${bytesKey(bytes)}:${parseInt(m[2]!, 16)}` : null;
}

/**
 * The rows of a `/proc/net/tcp` or `/proc/net/tcp6` text; lines that are not a socket row
 * (the header, anything malformed) are skipped. Never throws.
 */
export function parseProcNetTcp(text: string, little: boolean): SocketRow[] {
  const rows: SocketRow[] = [];
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    // sl local remote st tx:rx tr:when retrnsmt uid …
    if (f.length < 8 || !/^\d+:$/.test(f[0]!)) continue;
    const local = procEndpointKey(f[1]!, little);
    const remote = procEndpointKey(f[2]!, little);
    const uid = /^\d{1,10}$/.test(f[7]!) ? Number(f[7]) : NaN;
    if (local === null || remote === null || !Number.isSafeInteger(uid)) continue;
    rows.push({ local, remote, uid });
  }
  return rows;
}

/** The two ends of an accepted connection, as `net.Socket` has them. */
export interface TcpEnds {
  remoteAddress?: string | undefined;
  remotePort?: number | undefined;
  localAddress?: string | undefined;
  localPort?: number | undefined;
}

/**
 * The uid that owns the peer's end of `conn`: the row of `tables` (the texts of
 * `/proc/net/tcp` and `/proc/net/tcp6`) whose local end is the peer's and whose remote end is
 * ours. Null when none is, or `conn` lacks an end.
 */
export function peerUidIn(tables: readonly string[], conn: TcpEnds, little: boolean): number | null {
  if (conn.remoteAddress === undefined || conn.remotePort === undefined || conn.localAddress === undefined || conn.localPort === undefined) return null;
  const peer = endpointKey(conn.remoteAddress, conn.remotePort);
  const ours = endpointKey(conn.localAddress, conn.localPort);
  if (peer === null || ours === null) return null;
  for (const table of tables) {
    const row = parseProcNetTcp(table, little).find((r) => r.local === peer && r.remote === ours);
    if (row) return row.uid;
  }
  return null;
}
