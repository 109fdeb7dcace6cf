import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CrewView, Snapshot, type Pane } from '@collie/protocol';
import { bashPermission, claudeInputReady, plainReply, startClaude, startMessagesApi, startTmux, tempDir } from '@collie/testkit';
import { signedHeaders } from '../src/crew/client';
import { readIdentity } from '../src/crew/identity';
import { until } from './harness';
import { call, finalReceipt } from './send-helpers';
import { EventsClient } from './ws-client';
import { crewBridge, crewCli, freePort, rawCrew } from '@collie/testkit';

const memberPane = (name: string, harness: Pane['harness']) => (h: { panes: Map<string, Pane> }) => [...h.panes.values()].find((p) => p.member?.name === name && p.harness === harness);

describe('a crew of three bridges on this machine', () => {
  it('create, invite, join; the lead shows every pane; a send and a card answer reach a member Claude pane once; remove', async () => {
    await using tmuxL = await startTmux();
    await using tmuxA = await startTmux();
    await using tmuxB = await startTmux();
    await using apiA = await startMessagesApi();
    await using apiB = await startMessagesApi();
    await using dir = await tempDir('collie-crew-');
    const [sL, sA, sB] = ['lead', 'alpha', 'beta'].map((n) => `${dir.path}/${n}`) as [string, string, string];
    await tmuxL.newSession('lead-shell', { cmd: 'cat' });
    await using claudeA = await startClaude(tmuxA, apiA, { session: 'alpha-work' });
    await using claudeB = await startClaude(tmuxB, apiB, { session: 'beta-work' });
    await using lead = await crewBridge(tmuxL.tmpDir, sL, 'bluefin');
    await using alpha = await crewBridge(tmuxA.tmpDir, sA, 'minibuch');
    await using beta = await crewBridge(tmuxB.tmpDir, sB, 'workshop');

    // create on the lead: the listener opens on the address named, and only there.
    const leadPort = await freePort();
    const created = await crewCli(sL, ['create', '--name', 'bluefin', '--listen', `127.0.0.1:${leadPort}`, '--json']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.json).toMatchObject({ crew: expect.stringMatching(/^collie-[a-z0-9]{6}$/), name: 'bluefin', role: 'lead' });
    expect((await crewCli(sL, ['create', '--listen', `127.0.0.1:${leadPort}`])).code).toBe(4);
    await lead.crew.reload();

    for (const [name, state, bridge] of [['alpha', sA, alpha], ['beta', sB, beta]] as const) {
      const invite = await crewCli(sL, ['invite', '--json']);
      expect(invite.code, invite.stderr).toBe(0);
      const token = (invite.json as { token: string }).token;
      const joined = await crewCli(state, ['join', token, '--name', name, '--listen', `127.0.0.1:${await freePort()}`, '--json']);
      expect(joined.code, joined.stderr + joined.stdout).toBe(0);
      expect(joined.json).toMatchObject({ name, role: 'member', lead: { name: 'bluefin' } });
      // The token worked once.
      const again = await crewCli(sB === state ? sA : sB, ['join', token, '--listen', `127.0.0.1:${await freePort()}`]);
      expect(again.code).toBe(4);
      await bridge.crew.reload();
    }

    // The lead's hub, snapshot and event stream hold every member's panes, with the member named.
    const paneA = await until(lead.hub, 'alpha claude pane on the lead', memberPane('alpha', 'claude'), 30_000);
    const paneB = await until(lead.hub, 'beta claude pane on the lead', memberPane('beta', 'claude'), 30_000);
    expect(paneA.id).toBe(`@alpha/${tmuxA.name}:${claudeA.paneId}`);
    expect(paneA.address).toMatch(new RegExp(`^alpha/`));
    expect(paneA.member).toMatchObject({ name: 'alpha', reachable: true });
    const snap = Snapshot.parse(await (await fetch(`${lead.url}/api/snapshot`, { headers: lead.device.headers })).json());
    expect(snap.panes.map((p) => p.member?.name ?? 'local').sort()).toEqual(expect.arrayContaining(['alpha', 'beta', 'local']));
    const events = new EventsClient(`${lead.url}/api/events`, lead.device.headers);
    await events.opened;

    // A send from the lead's API, run by alpha's own send protocol.
    await until(lead.hub, 'alpha idle', (h) => { const p = h.panes.get(paneA.id); return p && (p.state === 'idle' || p.state === 'done') && p.dialog === null; }, 30_000);
    apiA.script(plainReply('Hello back from alpha.'));
    const sent = await call(lead, paneA.id, 'send', { text: 'hello from the lead', request_id: 'crew-send-1' });
    expect(sent.paneId).toBe(paneA.id);
    const done = await finalReceipt(lead, 'crew-send-1');
    expect(done.outcome).toBe('typed into the pane');
    await apiA.waitForRequest((q) => q.kind === 'main' && q.prompt === 'hello from the lead', 30_000);
    await events.next('the send on the lead event stream', (m) => m.type === 'send.updated' && m.receipt.requestId === 'crew-send-1' && m.receipt.paneId === paneA.id);
    await claudeA.waitForScreen((s) => s.includes('Hello back from alpha.') && claudeInputReady(s));
    // The same id again: the member's receipt, nothing typed twice.
    const prompts = apiA.requests.filter((q) => q.kind === 'main').length;
    expect((await call(lead, paneA.id, 'send', { text: 'hello from the lead', request_id: 'crew-send-1' })).outcome).toBe('typed into the pane');
    expect(apiA.requests.filter((q) => q.kind === 'main').length).toBe(prompts);

    // A card answer from the lead's API to beta's permission dialog.
    apiB.script(bashPermission('touch made-by-crew-answer'));
    await claudeB.submit('run the command');
    const carded = await until(lead.hub, 'beta permission card on the lead', (h) => { const p = h.panes.get(paneB.id); return p?.card?.kind === 'permission' && p.card.answerable && p; }, 60_000);
    const answered = await call(lead, paneB.id, 'answer', { signature: carded.card!.signature, request_id: 'crew-answer-1', option: 1 });
    expect(answered.kind).toBe('answer');
    expect((await finalReceipt(lead, 'crew-answer-1')).outcome).toBe('answered');
    const ran = await apiB.waitForRequest((q) => q.kind === 'main' && q.toolResults.length > 0, 60_000);
    expect(ran.toolResults[0]?.isError).toBe(false);
    expect(existsSync(join(claudeB.cwd, 'made-by-crew-answer'))).toBe(true);

    // list: every machine reachable.
    const list = await crewCli(sL, ['list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    expect((list.json as { members: { name: string; reachable: boolean }[] }).members.map((m) => [m.name, m.reachable])).toEqual([['bluefin', true], ['alpha', true], ['beta', true]]);

    // The phone's view of the crew: every machine, reachable; no device, no answer.
    const view = CrewView.parse(await (await fetch(`${lead.url}/api/crew`, { headers: lead.device.headers })).json());
    expect(view.crew === null ? [] : view.machines.map((m) => [m.name, m.role, m.reachable])).toEqual([['bluefin', 'lead', true], ['alpha', 'member', true], ['beta', 'member', true]]);
    expect((await fetch(`${lead.url}/api/crew`)).status).toBe(401);
    const memberView = CrewView.parse(await (await fetch(`${alpha.url}/api/crew`, { headers: alpha.device.headers })).json());
    expect(memberView).toMatchObject({ role: 'member', machines: [{ name: 'bluefin', role: 'lead', reachable: true }, { name: 'alpha', you: true }] });

    // A removed member: its panes leave the lead, and its key is refused `removed`.
    expect((await crewCli(sL, ['remove', 'nobody'])).code).toBe(3);
    expect((await crewCli(sL, ['remove', 'beta', '--json'])).code).toBe(0);
    await lead.crew.reload();
    await until(lead.hub, 'beta panes gone from the lead', (h) => ![...h.panes.values()].some((p) => p.member?.name === 'beta'), 10_000);
    const betaId = (await readIdentity(sB))!;
    const refused = await rawCrew(sL, '/crew/v1/hello', signedHeaders(betaId, 'GET', '/crew/v1/hello', '', (await readIdentity(sL))!.keyId));
    expect(refused).toMatchObject({ status: 403, json: { error: { code: 'removed' } } });

    // A send to a member that is not connected says so, and alpha's panes grey with its last-seen time.
    await alpha.stop();
    const grey = await until(lead.hub, 'alpha greyed', (h) => { const p = h.panes.get(paneA.id); return p?.member?.reachable === false && p; }, 10_000);
    expect(grey.member!.lastSeen).toBeGreaterThan(0);
    const res = await fetch(`${lead.url}/api/panes/${encodeURIComponent(paneA.id)}/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...lead.device.headers }, body: JSON.stringify({ text: 'x', request_id: 'crew-send-2' }) });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('member_unreachable');
    events.ws.close();
  }, 240_000);
});
