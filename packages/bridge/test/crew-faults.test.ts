import { describe, expect, it } from 'vitest';
import { claudeInputReady, plainReply, startClaude, startFaultProxy, startMessagesApi, startTmux, tempDir, crewBridge, crewCli, freePort } from '@collie/testkit';
import { decodeInvite, encodeInvite } from '../src/crew/invite-token';
import { until } from './harness';
import { call } from './send-helpers';

describe('the crew link through a fault-injecting proxy', () => {
  it('an answer lost on the way: the phone hears member_unreachable, the retry with the same id returns the receipt, and the text was typed once', async () => {
    await using tmuxL = await startTmux();
    await using tmuxA = await startTmux();
    await using api = await startMessagesApi();
    await using dir = await tempDir('collie-crew-fault-');
    const sL = `${dir.path}/lead`;
    const sA = `${dir.path}/alpha`;
    await tmuxL.newSession('l', { cmd: 'cat' });
    await using claude = await startClaude(tmuxA, api, { session: 'alpha-work' });
    await using lead = await crewBridge(tmuxL.tmpDir, sL, 'bluefin');
    await using alpha = await crewBridge(tmuxA.tmpDir, sA, 'minibuch');
    const leadPort = await freePort();
    expect((await crewCli(sL, ['create', '--name', 'bluefin', '--listen', `127.0.0.1:${leadPort}`])).code).toBe(0);
    await lead.crew.reload();
    await using proxy = await startFaultProxy(leadPort);
    // The member knows the lead by the proxy's address (the network between them); the pin is the lead's own.
    const invite = decodeInvite(((await crewCli(sL, ['invite', '--json'])).json as { token: string }).token);
    if (!invite.ok) throw new Error(invite.error);
    const joined = await crewCli(sA, ['join', encodeInvite({ ...invite.value, lead: proxy.address }), '--name', 'alpha', '--listen', `127.0.0.1:${await freePort()}`]);
    expect(joined.code, joined.stderr).toBe(0);
    await alpha.crew.reload();
    const paneId = `@alpha/${tmuxA.name}:${claude.paneId}`;
    await until(lead.hub, 'alpha idle on the lead', (h) => { const p = h.panes.get(paneId); return p?.member?.reachable && (p.state === 'idle' || p.state === 'done') && p.dialog === null && p; }, 30_000);

    // The request reaches alpha; alpha's answer is lost; then the link drops.
    api.script(plainReply('Typed once.'));
    proxy.dropUp();
    const first = fetch(`${lead.url}/api/panes/${encodeURIComponent(paneId)}/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...lead.device.headers }, body: JSON.stringify({ text: 'once only please', request_id: 'crew-fault-1' }) });
    await until(alpha.hub, 'alpha typed it', (h) => [...h.sends.values()].flat().find((r) => r.requestId === 'crew-fault-1' && r.final), 30_000);
    proxy.cut();
    const lost = await first;
    expect(lost.status).toBe(503);
    expect(((await lost.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'member_unreachable', message: expect.stringContaining('same request id') });
    await until(lead.hub, 'alpha greyed', (h) => h.panes.get(paneId)?.member?.reachable === false, 10_000);

    // The link comes back by itself; the phone tries again with the same id.
    proxy.heal();
    await until(lead.hub, 'alpha back', (h) => h.panes.get(paneId)?.member?.reachable === true, 20_000);
    const again = await call(lead, paneId, 'send', { text: 'once only please', request_id: 'crew-fault-1' });
    expect(again.outcome).toBe('typed into the pane');
    await claude.waitForScreen((s) => s.includes('Typed once.') && claudeInputReady(s));
    expect(api.requests.filter((q) => q.kind === 'main' && q.prompt.includes('once only please'))).toHaveLength(1);
    // The same id with other text is refused, as on one machine.
    const other = await fetch(`${lead.url}/api/panes/${encodeURIComponent(paneId)}/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...lead.device.headers }, body: JSON.stringify({ text: 'something else', request_id: 'crew-fault-1' }) });
    expect([other.status, ((await other.json()) as { error: { code: string } }).error.code]).toEqual([409, 'request_id_reused']);
    // Keys from the lead go the same way.
    const keys = await call(lead, paneId, 'keys', { keys: ['Escape'], request_id: 'crew-fault-keys' });
    expect(keys.kind).toBe('keys');
    // A box action goes the same way: the member's own receipt (the send left nothing in the box).
    const box = await fetch(`${lead.url}/api/panes/${encodeURIComponent(paneId)}/box`, { method: 'POST', headers: { 'content-type': 'application/json', ...lead.device.headers }, body: JSON.stringify({ action: 'clear', send_id: 'crew-fault-1', request_id: 'crew-box-1' }) });
    expect(box.status).toBe(200);
    expect(((await box.json()) as { receipt: { paneId: string; kind: string } }).receipt).toMatchObject({ paneId, kind: 'keys' });
  }, 180_000);
});
