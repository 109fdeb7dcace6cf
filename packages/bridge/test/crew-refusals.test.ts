import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER } from '@collie/protocol';
import { startTmux, tempDir } from '@collie/testkit';
import { signedHeaders } from '../src/crew/client';
import { readIdentity } from '../src/crew/identity';
import { decodeInvite, encodeInvite } from '../src/crew/invite-token';
import { signRequest } from '../src/crew/sign';
import { until } from './harness';
import { crewBridge, crewCli, freePort, rawCrew } from '@collie/testkit';

const refusal = (r: { json: unknown }) => (r.json as { error?: { code?: string } } | null)?.error?.code;

describe('the crew link refuses what it must', () => {
  it('stale, forged, replayed, unknown and malformed requests; a used, expired or re-pinned invite; a taken name; then a lead restart the member rides out', async () => {
    await using tmuxL = await startTmux();
    await using tmuxA = await startTmux();
    await using dir = await tempDir('collie-crew-ref-');
    const sL = `${dir.path}/lead`;
    const sA = `${dir.path}/alpha`;
    const sX = `${dir.path}/stranger`;
    await tmuxL.newSession('l', { cmd: 'cat' });
    await tmuxA.newSession('a', { cmd: 'cat' });
    let lead = await crewBridge(tmuxL.tmpDir, sL, 'bluefin');
    await using alpha = await crewBridge(tmuxA.tmpDir, sA, 'minibuch');
    const leadPort = await freePort();
    expect((await crewCli(sL, ['create', '--name', 'bluefin', '--listen', `127.0.0.1:${leadPort}`])).code).toBe(0);
    await lead.crew.reload();

    // The listener is bound to the address named and no other (127.0.0.2 is loopback too).
    const other = await new Promise<string>((resolve) => {
      const s = connect(leadPort, '127.0.0.2');
      s.once('connect', () => (s.destroy(), resolve('connected')));
      s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    });
    expect(other).toBe('ECONNREFUSED');

    // An invite whose fingerprint is not the lead's: refused before anything is sent (exit 4).
    const invite = (await crewCli(sL, ['invite', '--json'])).json as { token: string };
    const payload = decodeInvite(invite.token);
    if (!payload.ok) throw new Error(payload.error);
    const repinned = encodeInvite({ ...payload.value, fp: 'f'.repeat(64) });
    const wrongCert = await crewCli(sA, ['join', repinned, '--name', 'alpha', '--listen', `127.0.0.1:${await freePort()}`]);
    expect(wrongCert.code).toBe(4);
    expect(wrongCert.stderr).toContain("is not the lead's (the invite pins another); nothing was sent");
    // An invite the lead never made, one expired, a damaged one, a taken name.
    const forgedSecret = encodeInvite({ ...payload.value, secret: 'A'.repeat(43) });
    const unknownInvite = await crewCli(sA, ['join', forgedSecret, '--name', 'alpha', '--listen', `127.0.0.1:${await freePort()}`, '--json']);
    expect([unknownInvite.code, (unknownInvite.json as { error: { code: string } }).error.code]).toEqual([4, 'invite_unknown']);
    const expired = await crewCli(sA, ['join', encodeInvite({ ...payload.value, expires: Date.now() - 1 }), '--listen', `127.0.0.1:${await freePort()}`]);
    expect([expired.code, expired.stderr]).toEqual([4, expect.stringContaining('expired')]);
    expect((await crewCli(sA, ['join', 'cj1_notatoken', '--listen', '127.0.0.1:9'])).code).toBe(2);
    const taken = await crewCli(sA, ['join', invite.token, '--name', 'bluefin', '--listen', `127.0.0.1:${await freePort()}`]);
    expect([taken.code, taken.stderr]).toEqual([4, expect.stringContaining('the lead is called bluefin')]);
    // The refused joins spent nothing: the same invite still works once.
    const joined = await crewCli(sA, ['join', invite.token, '--name', 'alpha', '--listen', `127.0.0.1:${await freePort()}`]);
    expect(joined.code, joined.stderr).toBe(0);
    await alpha.crew.reload();
    await until(lead.hub, 'alpha on the lead', (h) => [...h.panes.values()].some((p) => p.member?.name === 'alpha' && p.member.reachable), 15_000);
    // Walky crosses the crew: the lead's broadcast lists every reachable machine's shell panes as skipped, each under its member part.
    const crewId = ((await (await fetch(`${lead.url}/api/crew`, { headers: lead.device.headers })).json()) as { crew: string }).crew;
    const cast = await fetch(`${lead.url}/api/walky/broadcast`, { method: 'POST', headers: { 'content-type': 'application/json', ...lead.device.headers }, body: JSON.stringify({ body: 'hello all' }) });
    expect(cast.status).toBe(200);
    const sent = (await cast.json()) as { messages: unknown[]; skipped: { address: string }[] };
    const shells = [...lead.hub.panes.values()].filter((p) => p.harness === 'shell').map((p) => p.address.replace(/^local\//, `${crewId}/`));
    expect(sent.skipped.map((p) => p.address).sort()).toEqual(shells.sort());
    expect(sent.skipped.some((p) => p.address.startsWith('alpha/'))).toBe(true);
    // A machine already in a crew cannot join another, nor create one.
    expect((await crewCli(sA, ['create', '--listen', `127.0.0.1:${await freePort()}`])).code).toBe(4);
    expect((await crewCli(sA, ['invite'])).code).toBe(4);
    expect((await crewCli(sA, ['remove', 'x'])).code).toBe(4);
    expect((await crewCli(sL, ['leave'])).code).toBe(4);

    const id = (await readIdentity(sA))!;
    const leadKey = (await readIdentity(sL))!.keyId;
    const path = '/crew/v1/hello';
    expect(await rawCrew(sL, path, signedHeaders(id, 'GET', path, '', leadKey))).toMatchObject({ status: 200, json: { name: 'bluefin', role: 'lead' } });
    // A clock 11 minutes off, either way.
    for (const off of [11, -11]) {
      const r = await rawCrew(sL, path, signedHeaders(id, 'GET', path, '', leadKey, Date.now() + off * 60_000));
      expect([r.status, refusal(r)]).toEqual([401, 'stale']);
    }
    // A replayed request: the same header twice.
    const once = signedHeaders(id, 'GET', path, '', leadKey);
    expect((await rawCrew(sL, path, once)).status).toBe(200);
    const replayed = await rawCrew(sL, path, once);
    expect([replayed.status, refusal(replayed)]).toEqual([401, 'replay']);
    // A forged signature: another key signing under alpha's key id; a header for another path.
    const { generateKeyPairSync } = await import('node:crypto');
    const forged = { [SIGNATURE_HEADER]: signRequest({ key: generateKeyPairSync('ed25519').privateKey, keyId: id.keyId, to: leadKey, method: 'GET', path, body: '' }) };
    expect(refusal(await rawCrew(sL, path, forged))).toBe('bad_signature');
    expect(refusal(await rawCrew(sL, path, signedHeaders(id, 'GET', '/crew/v1/other', '', leadKey)))).toBe('bad_signature');
    // A key the crew does not know, and no header at all.
    await crewCli(sX, ['create', '--listen', `127.0.0.1:${await freePort()}`]);
    const stranger = (await readIdentity(sX))!;
    expect(refusal(await rawCrew(sL, path, signedHeaders(stranger, 'GET', path, '', leadKey)))).toBe('unknown_key');
    expect(refusal(await rawCrew(sL, path, {}))).toBe('malformed');
    // A body over 64 KiB.
    const big = 'x'.repeat(70 * 1024);
    expect(refusal(await rawCrew(sL, '/crew/v1/join', { 'content-type': 'application/json' }, 'POST', big))).toBe('too_large');

    // A member whose clock is 11 minutes off cannot open its stream: refused stale.
    await alpha.stop();
    await using skewed = await crewBridge(tmuxA.tmpDir, sA, 'minibuch', { crew: { backoff: { first: 100, max: 500 }, now: () => Date.now() + 11 * 60_000 } });
    await until(lead.hub, 'alpha greyed', (h) => [...h.panes.values()].some((p) => p.member?.name === 'alpha' && !p.member.reachable), 10_000);
    await expect.poll(() => skewed.crew.link()?.refused ?? null, { timeout: 15_000 }).toBe('stale');
    await skewed.stop();

    // The lead restarts (same state): a member reconnects by itself and is reachable again.
    await using back = await crewBridge(tmuxA.tmpDir, sA, 'minibuch');
    await until(lead.hub, 'alpha back', (h) => [...h.panes.values()].some((p) => p.member?.name === 'alpha' && p.member.reachable), 15_000);
    await lead.stop();
    lead = await crewBridge(tmuxL.tmpDir, sL, 'bluefin');
    await until(lead.hub, 'alpha reconnected to the restarted lead', (h) => [...h.panes.values()].some((p) => p.member?.name === 'alpha' && p.member.reachable), 20_000);
    // A replay of a request accepted before the restart is still refused (seen.json).
    const r = await rawCrew(sL, path, once);
    expect(refusal(r)).toBe('replay');

    // leave: the member tells the lead, which drops it; its key is then unknown.
    const left = await crewCli(sA, ['leave', '--json']);
    expect(left.json).toMatchObject({ left: 'alpha', leadTold: true });
    expect((await crewCli(sA, ['list'])).code).toBe(3);
    expect(refusal(await rawCrew(sL, path, signedHeaders(id, 'GET', path, '', leadKey)))).toBe('unknown_key');
    await back.stop();
    await lead.stop();
  }, 180_000);
});
