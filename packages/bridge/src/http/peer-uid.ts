/**
 * Which local user opened a TCP connection to the bridge (`peerUidIn` of the protocol, over
 * this machine's `/proc/net/tcp` and `/proc/net/tcp6`). Every process on this machine connects
 * from loopback, so this, not the address, tells the proxy (`tailscale serve`) from any other
 * local user. Linux only; elsewhere no uid is known.
 */
import { readFileSync } from 'node:fs';
import { endianness } from 'node:os';
import { peerUidIn, type TcpEnds } from '@collie/protocol';

export type { TcpEnds } from '@collie/protocol';

const TABLES = ['/proc/net/tcp', '/proc/net/tcp6'];

function readTable(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** The uid that owns the peer's end of `conn`, or null when no socket of this machine is it. */
export function peerUid(conn: TcpEnds): number | null {
  return peerUidIn(TABLES.map(readTable), conn, endianness() === 'LE');
}

const known = new WeakMap<object, number | null>();

/** `peerUid` of a socket, looked up once per connection (a keep-alive connection asks once). */
export function socketPeerUid(socket: TcpEnds & object): number | null {
  if (known.has(socket)) return known.get(socket)!;
  const uid = peerUid(socket);
  known.set(socket, uid);
  return uid;
}
