/**
 * Nerve's credential: no route and no event socket without the bearer token of
 * `<state_dir>/api.json`; a real `startNerve` on loopback, a real SQLite file.
 */
import { stat, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { NerveApiFile, NerveErrorBody, nerveBearer } from '@collie/protocol';
import { tempDir } from '@collie/testkit';
import { checkCredential } from '../src/http/credential';
import { startNerve } from '../src/nerve';

const upgrade = (url: string, headers: Record<string, string>) =>
  new Promise<number>((resolve) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/api/events`, { headers });
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => undefined);
  });

describe('nerve credential', () => {
  it('refuses every route and the event socket without the token of api.json', async () => {
    await using dir = await tempDir('nerve-cred-');
    const config = join(dir.path, 'config.yaml');
    await writeFile(config, `listen:\n  port: 0\nstate_dir: ${join(dir.path, 'state')}\ncwd: ${dir.path}\n`);
    const nerve = await startNerve({ configFile: config, defaultStateDir: join(dir.path, 'state') });
    try {
      const file = NerveApiFile.parse(JSON.parse(await readFile(nerve.apiFile, 'utf8')));
      expect(file).toEqual({ url: nerve.url, token: nerve.token });
      expect((await stat(nerve.apiFile)).mode & 0o777).toBe(0o600);
      const routes: [string, string][] = [
        ['GET', '/api/health'],
        ['GET', '/api/sessions'],
        ['POST', '/api/sessions'],
        ['GET', '/api/sessions/ses_x/agents'],
        ['POST', '/api/sessions/ses_x/stop'],
        ['DELETE', '/api/sessions/ses_x/queue/q_x'],
        ['GET', '/api/nothing-here'],
      ];
      const refusals = [
        [{}, 'nerve: this API needs its credential: Authorization: Bearer <token> (the token is in api.json in the state dir)'],
        [{ authorization: nerve.token }, 'nerve: the Authorization header must be "Bearer <token>"'],
        [{ authorization: `Bearer nrv_${'0'.repeat(48)}` }, "nerve: that token is not this Nerve's (read api.json in its state dir again)"],
        [{ authorization: `Bearer ${nerve.token}x` }, "nerve: that token is not this Nerve's (read api.json in its state dir again)"],
      ] as const;
      for (const [method, path] of routes) {
        for (const [headers, message] of refusals) {
          const res = await fetch(`${nerve.url}${path}`, { method, headers: { ...headers } });
          expect(res.status, `${method} ${path}`).toBe(401);
          expect(NerveErrorBody.parse(await res.json())).toEqual({ error: { code: 'unauthorized', message } });
        }
      }
      const ok = await fetch(`${nerve.url}/api/sessions`, { headers: { authorization: `Bearer ${nerve.token}` } });
      expect(ok.status).toBe(200);
      expect(await upgrade(nerve.url, {})).toBe(401);
      expect(await upgrade(nerve.url, { authorization: `Bearer nrv_${'1'.repeat(48)}` })).toBe(401);
      expect(await upgrade(nerve.url, { authorization: `Bearer ${nerve.token}` })).toBe(101);
      // Nothing of the refused requests reached the gateway.
      expect(nerve.gateway.sessions.size).toBe(0);
    } finally {
      await nerve.close();
    }
    // A restart keeps the token, so a client that read api.json keeps working.
    const again = await startNerve({ configFile: config, defaultStateDir: join(dir.path, 'state') });
    try {
      expect(NerveApiFile.parse(JSON.parse(await readFile(again.apiFile, 'utf8'))).token).toBe(nerve.token);
    } finally {
      await again.close();
    }
  });

  it('accepts only the exact bearer token, whatever the header holds (property)', () => {
    const token = `nrv_${'c'.repeat(48)}`;
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (header) => {
        const r = checkCredential(header, token);
        expect(r.ok).toBe(nerveBearer(header) === token);
        if (!r.ok) expect(r.message).toMatch(/^nerve: /);
      }),
      { numRuns: 500 },
    );
    expect(checkCredential(`bearer   ${token}  `, token)).toEqual({ ok: true });
  });
});
