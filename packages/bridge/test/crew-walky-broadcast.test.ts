import { describe, expect, it } from 'vitest';
import { crewBridge, crewCli, freePort, plainReply, startClaude, startMessagesApi, startTmux, tempDir } from '@collie/testkit';
import { walkyWords, type BroadcastLine, type Pane, type WalkyMessage } from '@collie/protocol';
import type { Bridge } from '../src/bridge';
import { joinMembers } from './crew-join';
import { until } from './harness';
import { fakePane } from './walky/fake-pane';
import { runCli, walkyEnv } from './walky/kit';

async function phone<T>(b: Bridge & { device: { headers: Record<string, string> } }, path: string, body: unknown): Promise<{ status: number; json: T }> {
  const r = await fetch(`${b.url}/api/walky/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...b.device.headers }, body: JSON.stringify(body) });
  return { status: r.status, json: (await r.json()) as T };
}
const status = async (state: string, id: string) => JSON.parse((await runCli(['walky', 'status', id, '--json'], walkyEnv(state))).out || 'null') as (WalkyMessage & { panes?: BroadcastLine[] }) | null;
const statusLines = async (state: string, id: string) => {
  const r = await runCli(['walky', 'status', id], walkyEnv(state));
  expect(r.code, r.err).toBe(0);
  return r.out.trimEnd().split('\n');
};
const idle = (pred: (p: Pane) => boolean) => (h: { panes: Map<string, Pane> }) => [...h.panes.values()].find((p) => pred(p) && p.harness === 'claude' && (p.state === 'idle' || p.state === 'done') && p.draft === null && (!p.member || p.member.reachable));
const bare = (address: string) => address.replace(/#.*$/, '');

type Cast = { id: string; messages: WalkyMessage[]; skipped: { address: string }[] };

describe('a broadcast across a crew: from a member, a member with walky talky off, a member the lead cannot reach', () => {
  it("a member's broadcast is one id on the member, one line per pane across machines; an off member and an unreachable one each have one <member>/all line; the receivers' records carry the id", async () => {
    await using tmuxL = await startTmux();
    await using tmuxA = await startTmux();
    await using tmuxB = await startTmux();
    await using tmuxG = await startTmux();
    await using tmuxD = await startTmux();
    await using api = await startMessagesApi({ fallback: plainReply('Noted.') });
    await using dir = await tempDir('collie-crew-walky-cast-');
    const [sL, sA, sB, sG, sD] = ['lead', 'alpha', 'beta', 'gamma', 'delta'].map((n) => `${dir.path}/${n}`) as [string, string, string, string, string];
    await using claudeL = await startClaude(tmuxL, api, { session: 'lead-work' });
    await using claudeA = await startClaude(tmuxA, api, { session: 'alpha-work' });
    await using claudeB = await startClaude(tmuxB, api, { session: 'beta-work' });
    // gamma and delta never type anything (walky off, and not reachable): a stand-in Claude pane each.
    await fakePane(tmuxG, dir.path, 'gamma-work');
    await fakePane(tmuxD, dir.path, 'delta-work');
    await using lead = await crewBridge(tmuxL.tmpDir, sL, 'bluefin');
    // alpha's walky clock: the wall clock plus what the test skips (its timers real), to bring on the 30 s sweep.
    let skip = 0;
    const clock = { now: () => Date.now() + skip, setTimer: (fn: () => void, ms: number) => { const t = setTimeout(fn, ms); return () => clearTimeout(t); } };
    await using alpha = await crewBridge(tmuxA.tmpDir, sA, 'minibuch', { clock });
    await using beta = await crewBridge(tmuxB.tmpDir, sB, 'workshop');
    // COLLIE_WALKY=off on gamma.
    await using gamma = await crewBridge(tmuxG.tmpDir, sG, 'attic', { walky: { off: true } });
    await using delta = await crewBridge(tmuxD.tmpDir, sD, 'cellar');

    const created = await crewCli(sL, ['create', '--name', 'bluefin', '--listen', `127.0.0.1:${await freePort()}`, '--json']);
    expect(created.code, created.stderr).toBe(0);
    const crewId = (created.json as { crew: string }).crew;
    await lead.crew.reload();
    await joinMembers(sL, [
      ['alpha', sA, alpha, `127.0.0.1:${await freePort()}`, null],
      ['beta', sB, beta, `127.0.0.1:${await freePort()}`, null],
      ['gamma', sG, gamma, `127.0.0.1:${await freePort()}`, null],
      ['delta', sD, delta, `127.0.0.1:${await freePort()}`, null],
    ]);
    const paneL = await until(lead.hub, 'the lead pane idle', idle((p) => p.id === `${tmuxL.name}:${claudeL.paneId}`), 60_000);
    const paneA = await until(lead.hub, 'alpha idle on the lead', idle((p) => p.member?.name === 'alpha'), 60_000);
    const paneB = await until(lead.hub, 'beta idle on the lead', idle((p) => p.member?.name === 'beta'), 60_000);
    const paneG = await until(lead.hub, 'gamma on the lead', idle((p) => p.member?.name === 'gamma'), 60_000);
    await until(lead.hub, 'delta on the lead', idle((p) => p.member?.name === 'delta'), 60_000);
    await until(alpha.hub, 'alpha idle', idle((p) => p.tmuxId === claudeA.paneId), 60_000);
    // delta goes away: the lead keeps its pane, greyed.
    await delta.stop();
    await until(lead.hub, 'delta greyed', (h) => [...h.panes.values()].some((p) => p.member?.name === 'delta' && !p.member.reachable), 20_000);
    const leadShown = `${crewId}/${bare(paneL.address).replace(/^local\//, '')}`;

    // 1. alpha's phone broadcasts to every machine: alpha's own pane here, the rest through the lead.
    const cast = await phone<Cast>(alpha, 'broadcast', { body: 'Freeze merges until noon.', member: 'all' });
    expect(cast.status).toBe(200);
    const byPane = (address: string) => cast.json.messages.find((m) => m.to?.pane === bare(address));
    for (const m of cast.json.messages) expect(m.broadcast).toBe(cast.json.id);
    const toB = byPane(paneB.address)!;
    const toL = byPane(leadShown)!;
    const toA = cast.json.messages.find((m) => m.to !== null && m.to.member === undefined)!;
    expect(toB).toMatchObject({ from: { kind: 'operator', member: 'alpha' }, to: { member: 'beta' } });
    expect(toL.to).toMatchObject({ member: crewId });
    expect(byPane(paneG.address)).toBeDefined();
    expect(cast.json.messages.find((m) => m.to?.member === 'delta')).toMatchObject({ state: 'refused', reason: 'member unreachable' });
    // Every pane's header reached its model once, under that pane's own id.
    for (const m of [toA, toB, toL]) await api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes(`[walky-talky ${m.id}]`), 90_000);
    // status <broadcast id> on the member: one line per pane across machines, a machine that refused it whole as one.
    const expected = [
      cast.json.id,
      `${toA.to!.pane}  typed into the pane  (this machine)`,
      `${bare(paneB.address)}  typed into the pane  (this machine)`,
      `${leadShown}  typed into the pane  (this machine)`,
      'delta/all  not sent: member unreachable  (this machine)',
      'gamma/all  not sent: off  (this machine)',
    ];
    await expect.poll(() => statusLines(sA, cast.json.id), { timeout: 60_000 }).toEqual(expected);
    // The receiving machines' records carry the broadcast's id, signed by alpha.
    expect(await status(sB, toB.id)).toMatchObject({ state: 'delivered', broadcast: cast.json.id, verified: 'origin', from: { kind: 'operator', member: 'alpha' } });
    expect(await statusLines(sB, cast.json.id)).toEqual([cast.json.id, `beta/${bare(paneB.address).split('/')[1]}  typed into the pane  (signed by alpha)`]);
    expect(await status(sL, toL.id)).toMatchObject({ state: 'delivered', broadcast: cast.json.id, verified: 'origin' });
    expect(await status(sG, byPane(paneG.address)!.id)).toMatchObject({ state: 'refused', reason: 'off', broadcast: cast.json.id });
    expect([...gamma.hub.sends.values()].flat()).toHaveLength(0);
    // Still known after the 30 s sweep of panes: a member keeps its records of other machines' panes.
    // The sweep's own effect is the proof it ran: a record for a pane of alpha's own that went away is dropped.
    const spare = await tmuxA.newSession('alpha-spare', { cmd: 'cat' });
    const spareP = await until(alpha.hub, 'the spare shell on alpha', (h) => [...h.panes.values()].find((p) => p.tmuxId === spare), 30_000);
    const toSpare = await phone<{ message: WalkyMessage }>(alpha, 'send', { to: spareP.address, body: 'Anyone there?' });
    expect(toSpare.json.message).toMatchObject({ state: 'refused', reason: 'not an agent pane', to: { paneId: spareP.id } });
    await tmuxA.killPane(spare);
    await until(alpha.hub, 'the spare shell gone', (h) => ![...h.panes.values()].some((p) => p.id === spareP.id), 30_000);
    expect((await status(sA, toSpare.json.message.id))?.to).toMatchObject({ paneId: spareP.id });
    // Each look moves alpha's clock 5 s on (90 s at most, far from stale); the sweep runs every 10 s of the wall clock.
    await expect
      .poll(
        async () => {
          skip = Math.min(skip + 5_000, 90_000);
          return (await status(sA, toSpare.json.message.id))?.to ?? null;
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBeNull();
    expect(await statusLines(sA, cast.json.id)).toEqual(expected);
    await until(lead.hub, 'beta idle again', idle((p) => p.id === paneB.id), 60_000);
    await until(lead.hub, 'the lead pane idle again', idle((p) => p.id === paneL.id), 60_000);

    // 2 and 5. The lead's own broadcast: gamma (walky off) and delta (not reachable) one line each.
    const leadCast = await phone<Cast>(lead, 'broadcast', { body: 'Release is at noon.', member: 'all' });
    expect(leadCast.status).toBe(200);
    const lines = async () => (await statusLines(sL, leadCast.json.id)).filter((l) => l.endsWith('/all  not sent: member unreachable  (this machine)') || l.endsWith('/all  not sent: off  (this machine)'));
    await expect.poll(lines, { timeout: 30_000 }).toEqual(['delta/all  not sent: member unreachable  (this machine)', 'gamma/all  not sent: off  (this machine)']);
    const leadToB = leadCast.json.messages.find((m) => m.to?.paneId === paneB.id)!;
    await expect.poll(async () => (await status(sB, leadToB.id))?.broadcast, { timeout: 30_000 }).toBe(leadCast.json.id);

    // 5. A message from another member to gamma's pane is refused with the page's words.
    const toG = await phone<{ message: WalkyMessage }>(alpha, 'send', { to: paneG.address, body: 'Are you there?' });
    expect(toG.status).toBe(200);
    await expect.poll(async () => (await status(sA, toG.json.message.id))?.reason, { timeout: 30_000 }).toBe('off');
    const refused = (await status(sA, toG.json.message.id))!;
    expect(walkyWords(refused.state, refused.reason)).toBe('not sent: off');
    expect(await statusLines(sA, toG.json.message.id)).toEqual([toG.json.message.id, `${bare(paneG.address)}  not sent: off  (this machine)`]);
    expect([...gamma.hub.sends.values()].flat()).toHaveLength(0);
    void claudeB;
  }, 360_000);
});
