/**
 * Attack replay: a member of a crew keeps a request its lead signed for it and sends the same
 * bytes to another member. The signature must name the machine it is for, so the second member
 * refuses it (`misdirected`, in its audit.log); a request signed the old way (no receiver) is
 * refused by a member (`unbound`) and still taken by a lead from its own member.
 */
import { randomBytes, sign } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER } from '@collie/protocol';
import { crewBridge, crewCli, freePort, rawCrewAt, startTmux, tempDir } from '@collie/testkit';
import { readIdentity, type Identity } from '../../src/crew/identity';
import { bodyHash } from '../../src/crew/sign';
import { joinMembers, leadReaches } from '../crew-join';
import { until } from '../harness';

type Raw = { status: number; json: unknown };
const code = (r: Raw) => (r.json as { error?: { code?: string } } | null)?.error?.code;

/** A header signed the way bridges signed before the receiver was covered (v1). */
function v1Header(id: Identity, method: string, path: string, body: string): Record<string, string> {
  const ts = Date.now();
  const nonce = randomBytes(16).toString('base64url');
  const text = ['collie-crew-v1', method, path, bodyHash(body), String(ts), nonce, id.keyId].join('\n');
  const sig = sign(null, Buffer.from(text, 'utf8'), id.privateKey).toString('base64url');
  return { [SIGNATURE_HEADER]: `v1;key=${id.keyId};ts=${ts};nonce=${nonce};sig=${sig}` };
}

const auditLines = async (state: string) =>
  (await readFile(join(state, 'audit.log'), 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('attack replay: a request the lead signed for one member, sent to another', () => {
  it('the second member refuses it misdirected and audits it; the first takes it; unbound (v1) requests are refused by members and taken by the lead from its member', async () => {
    await using tmuxL = await startTmux();
    await using tmuxA = await startTmux();
    await using tmuxB = await startTmux();
    await using dir = await tempDir('collie-sec-crew-replay-');
    const [sL, sA, sB] = ['lead', 'alpha', 'beta'].map((n) => `${dir.path}/${n}`) as [string, string, string];
    await tmuxL.newSession('l', { cmd: 'cat' });
    await tmuxA.newSession('a', { cmd: 'cat' });
    await tmuxB.newSession('b', { cmd: 'cat' });
    await using lead = await crewBridge(tmuxL.tmpDir, sL, 'bluefin');
    await using alpha = await crewBridge(tmuxA.tmpDir, sA, 'minibuch');
    await using beta = await crewBridge(tmuxB.tmpDir, sB, 'workshop');
    expect((await crewCli(sL, ['create', '--name', 'bluefin', '--listen', `127.0.0.1:${await freePort()}`])).code).toBe(0);
    await lead.crew.reload();
    await joinMembers(sL, [
      ['alpha', sA, alpha, `127.0.0.1:${await freePort()}`, null],
      ['beta', sB, beta, `127.0.0.1:${await freePort()}`, null],
    ]);
    const paneA = await until(lead.hub, 'alpha on the lead', (h) => [...h.panes.values()].find((p) => p.member?.name === 'alpha' && p.member.reachable), 20_000);
    await until(lead.hub, 'beta on the lead', (h) => [...h.panes.values()].find((p) => p.member?.name === 'beta' && p.member.reachable), 20_000);

    // alpha turns hostile: the lead's posts to alpha go to a listener holding alpha's own key and certificate, which keeps them.
    const idA = (await readIdentity(sA))!;
    const kept: { method: string; path: string; headers: Record<string, string>; body: string }[] = [];
    const trap = https.createServer({ key: idA.keyPem, cert: idA.certPem }, (req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        kept.push({ method: req.method ?? '', path: req.url ?? '', headers: { [SIGNATURE_HEADER]: String(req.headers[SIGNATURE_HEADER]), 'content-type': 'application/json' }, body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"messages":[]}');
      });
    });
    await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
    try {
      await leadReaches(sL, 'alpha', `127.0.0.1:${(trap.address() as AddressInfo).port}`);
      await lead.crew.reload();
      // The lead's phone opens alpha's pane's messages: the lead posts /crew/v1/walky/messages to "alpha".
      const r = await fetch(`${lead.url}/api/walky/messages?pane=${encodeURIComponent(paneA.id)}`, { headers: lead.device.headers });
      expect(r.status).toBe(200);
      await expect.poll(() => kept.length, { timeout: 10_000 }).toBeGreaterThan(0);
    } finally {
      await new Promise<void>((r) => trap.close(() => r()));
    }
    const stolen = kept[0]!;
    expect(stolen.path).toBe('/crew/v1/walky/messages');

    // The same bytes to beta: refused, with a clear code, and written to beta's audit.log.
    const replayed = await rawCrewAt(sB, stolen.path, stolen.headers, stolen.method, stolen.body);
    expect([replayed.status, code(replayed)]).toEqual([401, 'misdirected']);
    expect((replayed.json as { error: { message: string } }).error.message).toContain('signed for another machine');
    // The audit line is written as the refusal goes out: wait for it to land.
    await expect.poll(async () => (await auditLines(sB)).filter((l) => l.action === 'crew.refused'), { timeout: 5_000 }).toEqual([expect.objectContaining({ action: 'crew.refused', code: 'misdirected', path: '/crew/v1/walky/messages', from: 'bluefin' })]);
    // The request itself was good: alpha's real listener, the machine it was signed for, takes it.
    const taken = await rawCrewAt(sA, stolen.path, stolen.headers, stolen.method, stolen.body);
    expect(taken.status).toBe(200);

    // Older peers. A lead's request signed without its receiver (v1): a member refuses it unbound.
    const idL = (await readIdentity(sL))!;
    const hello = '/crew/v1/hello';
    const unbound = await rawCrewAt(sB, hello, v1Header(idL, 'GET', hello, ''), 'GET', '');
    expect([unbound.status, code(unbound)]).toEqual([401, 'unbound']);
    await expect.poll(async () => (await auditLines(sB)).some((l) => l.code === 'unbound'), { timeout: 5_000 }).toBe(true);
    // A member's request without its receiver: the lead takes it (a member's key is known to its lead alone).
    const fromMember = await rawCrewAt(sL, hello, v1Header(idA, 'GET', hello, ''), 'GET', '');
    expect(fromMember).toMatchObject({ status: 200, json: { name: 'bluefin', role: 'lead' } });
    // The links themselves still work after all this: both members stay reachable on the lead.
    expect(lead.crew.connected().sort()).toEqual(['alpha', 'beta']);
  }, 120_000);
});
