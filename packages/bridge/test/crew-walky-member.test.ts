import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crewBridge, crewCli, freePort, plainReply, startClaude, startFaultProxy, startMessagesApi, startTmux, tempDir } from '@collie/testkit';
import type { Pane, WalkyMessage } from '@collie/protocol';
import { joinMembers, leadReaches } from './crew-join';
import { until } from './harness';
import { fakePane } from './walky/fake-pane';
import { runCli, walkyEnv } from './walky/kit';

const lines = (out: string) => out.trim().split('\n');
const idle = (pred: (p: Pane) => boolean) => (h: { panes: Map<string, Pane> }) => [...h.panes.values()].find((p) => pred(p) && p.harness === 'claude' && (p.state === 'idle' || p.state === 'done') && p.draft === null && (!p.member || p.member.reachable));
const status = async (state: string, id: string) => JSON.parse((await runCli(['walky', 'status', id, '--json'], walkyEnv(state))).out || 'null') as WalkyMessage | null;
/** The ids a machine's log.jsonl holds now. */
const logged = async (state: string) => new Set((await readFile(join(state, 'walky', 'log.jsonl'), 'utf8')).split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { m: WalkyMessage }).m.id));

describe("a crew member's own agents: walky talky off on the member, a lead that answers late, the member's records of what it sent", () => {
  it('off refuses only for the member\'s panes; a send through a silent lead is queued at 15 s and exits 0; the member keeps its sent records past two sweeps and the lead\'s phone lists them; who names machines by their crew names', async () => {
    await using tmuxL = await startTmux();
    await using tmuxA = await startTmux();
    await using api = await startMessagesApi({ fallback: plainReply('Noted.') });
    await using dir = await tempDir('collie-crew-walky-member-');
    const [sL, sA] = ['lead', 'alpha'].map((n) => `${dir.path}/${n}`) as [string, string];
    await using claudeL = await startClaude(tmuxL, api, { session: 'lead-work' });
    const s = await fakePane(tmuxA, dir.path, 'alpha-work', 'fresh-idle', walkyEnv(sA));
    // Host names differ from crew names: MACHINE in who must show the crew's.
    await using lead = await crewBridge(tmuxL.tmpDir, sL, 'fin-host');
    // alpha: COLLIE_WALKY=off, and a walky clock the test moves on (its timers real) to bring on the 30 s grace of
    // the sweep, which looks every second here (10 s by default).
    let skip = 0;
    const clock = { now: () => Date.now() + skip, setTimer: (fn: () => void, ms: number) => { const t = setTimeout(fn, ms); return () => clearTimeout(t); } };
    await using alpha = await crewBridge(tmuxA.tmpDir, sA, 'mb-host', { walky: { off: true, rescanMs: 1_000 }, clock });

    const leadPort = await freePort();
    const created = await crewCli(sL, ['create', '--name', 'bluefin', '--listen', `127.0.0.1:${leadPort}`, '--json']);
    expect(created.code, created.stderr).toBe(0);
    const crewId = (created.json as { crew: string }).crew;
    await lead.crew.reload();
    // Both ways between the lead and alpha go through a proxy: alpha → lead (up), lead → alpha (down).
    const alphaPort = await freePort();
    await using up = await startFaultProxy(leadPort);
    await using down = await startFaultProxy(alphaPort);
    await joinMembers(sL, [['minibuch', sA, alpha, `127.0.0.1:${alphaPort}`, up.address]]);
    await leadReaches(sL, 'minibuch', down.address);
    const L = await until(lead.hub, 'the lead pane idle', idle((p) => p.id === `${tmuxL.name}:${claudeL.paneId}`), 60_000);
    const S = await until(lead.hub, "alpha's pane on the lead", (h) => [...h.panes.values()].find((p) => p.member?.name === 'minibuch' && p.member.reachable && p.harness === 'claude'), 60_000);
    const leadAddress = L.address.replace(/^local\//, `${crewId}/`);

    // who on the lead: MACHINE is the crew's name for each machine, not its host name.
    const who = await runCli(['walky', 'who'], walkyEnv(sL));
    expect(who.code, who.err).toBe(0);
    const row = (address: string) => lines(who.out).find((l) => l.startsWith(`${address} `))?.split(/\s+/)[1];
    expect(row(leadAddress)).toBe('bluefin');
    expect(row(S.address)).toBe('minibuch');
    expect(JSON.parse((await runCli(['walky', 'who', '--json'], walkyEnv(sA))).out)).toMatchObject({ machine: 'minibuch', panes: [{ machine: 'minibuch' }] });

    // 1. Off on the member: its own agent still sends to the lead's pane, typed there once.
    const sent = await s.collie(['walky', 'send', leadAddress, 'Off here, but I may still send.']);
    expect(sent.code, sent.out + sent.err).toBe(0);
    const sentId = lines(sent.out)[0]!;
    expect(lines(sent.out).slice(1)).toEqual([`to ${leadAddress}, claude, ${L.label}`, 'typed into the pane']);
    await api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes(`[walky-talky ${sentId}]`), 60_000);
    // ...while a message for the member's pane is still refused off.
    const toMember = await fetch(`${lead.url}/api/walky/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...lead.device.headers }, body: JSON.stringify({ to: S.address, body: 'Are you there?' }) });
    const toMemberId = ((await toMember.json()) as { message: WalkyMessage }).message.id;
    await expect.poll(async () => (await status(sL, toMemberId))?.reason, { timeout: 30_000 }).toBe('off');
    await until(lead.hub, 'the lead pane idle again', idle((p) => p.id === L.id), 60_000);

    // 2. A lead that answers late: its answers to alpha are lost and its outcome pushes refused.
    up.dropDown();
    down.cut();
    const late = await s.collie(['walky', 'send', leadAddress, 'Through a silent lead.']);
    const lateId = lines(late.out)[0]!;
    expect(late.code, late.err).toBe(0);
    expect(late.err).toBe('');
    expect(lines(late.out)).toEqual([lateId, `to ${leadAddress}`, 'queued (outcome known on the lead)', `check later: collie walky status ${lateId}`]);
    expect(late.ms, `the CLI took ${Math.round(late.ms)} ms`).toBeGreaterThanOrEqual(14_500);
    expect(late.ms, `the CLI took ${Math.round(late.ms)} ms`).toBeLessThan(20_000);
    await api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes(`[walky-talky ${lateId}]`), 60_000);
    up.heal();
    down.heal();
    await expect.poll(async () => (await status(sA, lateId))?.state, { timeout: 60_000 }).toBe('delivered');
    expect((await s.collie(['walky', 'status', lateId])).out).toBe(`${lateId}\n${leadAddress.replace(/#.*$/, '')}  typed into the pane  (this machine)\n`);
    await until(lead.hub, 'the lead pane idle once more', idle((p) => p.id === L.id), 60_000);
    for (const id of [sentId, lateId]) expect(api.requests.filter((r) => r.kind === 'main' && r.prompt.includes(`[walky-talky ${id}]`))).toHaveLength(1);

    // 3. The sweep runs (its proof: a record for a pane of alpha's own that went away is dropped), twice over,
    // and alpha's records of what its pane sent to the lead stay in its log.
    for (const session of ['spare-one', 'spare-two']) {
      const spare = await tmuxA.newSession(session, { cmd: 'cat' });
      const spareP = await until(alpha.hub, `the ${session} shell on alpha`, (h) => [...h.panes.values()].find((p) => p.tmuxId === spare), 30_000);
      const r = await fetch(`${alpha.url}/api/walky/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...alpha.device.headers }, body: JSON.stringify({ to: spareP.address, body: 'Anyone there?' }) });
      const spareId = ((await r.json()) as { message: WalkyMessage }).message.id;
      expect((await logged(sA)).has(spareId)).toBe(true);
      await tmuxA.killPane(spare);
      await until(alpha.hub, `the ${session} shell gone`, (h) => ![...h.panes.values()].some((p) => p.id === spareP.id), 30_000);
      // Each look moves alpha's clock 5 s on; the sweep runs every second of the wall clock.
      await expect
        .poll(
          async () => {
            skip += 5_000;
            return (await logged(sA)).has(spareId);
          },
          { timeout: 60_000, interval: 1_000 },
        )
        .toBe(false);
    }
    const kept = await logged(sA);
    expect(kept.has(sentId) && kept.has(lateId)).toBe(true);
    expect(await status(sA, sentId)).toMatchObject({ state: 'delivered', body: 'Off here, but I may still send.', to: { member: crewId } });
    // The lead's phone lists them in alpha's pane's Messages sheet, read from alpha's own log.
    const listed = await fetch(`${lead.url}/api/walky/messages?pane=${encodeURIComponent(S.id)}`, { headers: lead.device.headers });
    expect(listed.status).toBe(200);
    const list = ((await listed.json()) as { messages: WalkyMessage[] }).messages;
    for (const id of [sentId, lateId]) expect(list.find((m) => m.id === id)).toMatchObject({ state: 'delivered', from: { paneId: S.id, member: 'minibuch' } });
  }, 300_000);
});
