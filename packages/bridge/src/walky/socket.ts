import { chmod, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { WALKY_MAX_LINE, type WalkyAnswer } from '@collie/protocol';
import { errorAnswer } from './parse';
import { closingServer } from '../config/closing-server';

/** A caller that has not sent its line in this long is answered and closed. */
export const REQUEST_TIMEOUT_MS = 5_000;

export interface WalkySocket {
  close(): Promise<void>;
}

/**
 * `<state>/walky/sock`, mode 0600 (in a 0700 directory): one JSON request line and one JSON
 * answer line per connection, then the bridge closes it. Oversized, torn or slow requests
 * are answered with an error; nothing a caller sends stops the server. `handle` gets the
 * connection too, so that the caller is proved by it (peer.ts).
 */
export async function listenWalky(path: string, handle: (line: string, conn: Socket) => Promise<WalkyAnswer>): Promise<WalkySocket> {
  // A socket file left by a bridge that was killed refuses every connection: replace it.
  await rm(path, { force: true });
  // Half-open: a caller may end its side after the line and still read the answer.
  const server: Server = createServer({ allowHalfOpen: true }, (conn) => {
    conn.on('error', () => undefined); // the caller went away: nothing to answer
    let buf = '';
    let answered = false;
    let taken = false;
    const answer = (a: WalkyAnswer) => {
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      if (!conn.destroyed) conn.end(`${JSON.stringify(a)}\n`);
      // A caller that never closes its side does not keep the descriptor.
      setTimeout(() => conn.destroy(), REQUEST_TIMEOUT_MS).unref();
    };
    const timer = setTimeout(() => answer(errorAnswer('bad_request', `walky: no request line within ${REQUEST_TIMEOUT_MS / 1000} s`)), REQUEST_TIMEOUT_MS);
    const take = (line: string) => {
      taken = true;
      // The line is in: the 5 s were for the caller's line, not for the answer (a send waits up to 15 s).
      clearTimeout(timer);
      conn.pause();
      handle(line, conn).then(answer, (err: unknown) => answer(errorAnswer('internal', `walky: ${(err as Error).message}`)));
    };
    conn.setEncoding('utf8');
    conn.on('data', (chunk: string) => {
      if (answered || taken) return;
      buf += chunk;
      const nl = buf.indexOf('\n');
      if (nl >= 0) return take(buf.slice(0, nl));
      if (buf.length > WALKY_MAX_LINE) answer(errorAnswer('too_large', `walky: a request is at most ${WALKY_MAX_LINE} bytes`));
    });
    conn.on('end', () => {
      if (answered || taken) return;
      if (buf.trim() === '') answer(errorAnswer('bad_request', 'walky: empty request'));
      else take(buf);
    });
  });
  server.on('error', () => undefined);
  const closing = closingServer(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  await chmod(path, 0o600);
  return {
    async close() {
      await closing.close();
      await rm(path, { force: true });
    },
  };
}
