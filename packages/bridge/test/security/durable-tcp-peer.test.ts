/**
 * The same fault as the proxy login's, on a durable agent served on a TCP port without a
 * token: it took anyone who reached loopback, and every local user does. Now such an agent
 * answers only connections of its own user (the bridge, run by the same user); another local
 * user is refused 401. With a token, the token decides, as before.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { WIRE_HEADER, WIRE_VERSION } from '@collie/protocol';
import { startDesk } from '@collie/durable-sdk/examples/desk';

const run = promisify(execFile);

/** curl as another local user (uid 65534); the HTTP status it got. */
async function curlAsNobody(args: string[]): Promise<string> {
  const { stdout } = await run('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'curl', '-s', '-o', '/dev/null', '-w', '%{http_code}', '--max-time', '10', '-H', `${WIRE_HEADER}: ${WIRE_VERSION}`, ...args]);
  return stdout;
}

describe.skipIf(process.getuid?.() !== 0)('a durable agent on a TCP port without a token (attack replay)', () => {
  for (const host of ['127.0.0.1', '::1']) {
    it(`on ${host}: another local user is refused 401; its own user is served`, async () => {
      const desk = await startDesk({ port: 0, host }, { samples: false, closed: 0 });
      try {
        const url = desk.listening.address;
        expect(await curlAsNobody([`${url}/hello`])).toBe('401');
        expect(await curlAsNobody(['-X', 'POST', '-H', 'content-type: application/json', '-d', '{}', `${url}/conversation/open`])).toBe('401');
        const own = await fetch(`${url}/hello`, { headers: { [WIRE_HEADER]: String(WIRE_VERSION) } });
        expect(own.status).toBe(200);
      } finally {
        await desk.close();
      }
    }, 30_000);
  }
});
