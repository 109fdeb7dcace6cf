import { describe, expect, it } from 'vitest';
import { crewBridge, crewCli, freePort, startFaultProxy, startPushService, startTmux, tempDir, type ReceivedPush } from '@collie/testkit';
import { until } from './harness';
import { joinMembers } from './crew-join';
import { isShow, isWithdraw, payloadOf, pushCall } from './push-kit';
import { fakePane } from './walky/fake-pane';

const DELAY = 1500;

const shown = (p: ReceivedPush) => {
  const x = payloadOf(p);
  if (x.type !== 'push.show') throw new Error('not a show');
  return x;
};

describe('pushes for a member\'s pane, at the push service\'s wire (docs/push.md, "In a crew")', () => {
  it('the lead pushes a member\'s question naming the member; the member, while its link is up, leaves it to the lead; link down, the member takes it back; one push per ask', async () => {
    await using tmuxL = await startTmux();
    await using tmuxM = await startTmux();
    await using dir = await tempDir('collie-push-crew-');
    await using service = await startPushService();
    const [sL, sM] = ['lead', 'member'].map((n) => `${dir.path}/${n}`) as [string, string];
    await tmuxL.newSession('desk', { cmd: 'cat' });
    const pane = await fakePane(tmuxM, dir.path, 'api', 'fresh-idle');
    const push = { ca: service.ca, loopbackEndpoints: true, backoff: [50, 100, 200], delayMs: DELAY };
    await using lead = await crewBridge(tmuxL.tmpDir, sL, 'bluefin', { push });
    await using member = await crewBridge(tmuxM.tmpDir, sM, 'workshop-host', { push });
    const leadPort = await freePort();
    expect((await crewCli(sL, ['create', '--name', 'bluefin', '--listen', `127.0.0.1:${leadPort}`])).code).toBe(0);
    await lead.crew.reload();
    // The member reaches its lead through a relay the test can cut (the network between them).
    await using proxy = await startFaultProxy(leadPort);
    await joinMembers(sL, [['workshop', sM, member, `127.0.0.1:${await freePort()}`, proxy.address]]);

    // The same phone subscribed on both machines: sub 0 on the lead, sub 1 on the member itself.
    const sub0 = service.subscribe();
    const sub1 = service.subscribe();
    expect((await pushCall(lead, '/subscribe', { subscription: sub0 })).status).toBe(200);
    expect((await pushCall(member, '/subscribe', { subscription: sub1 }, member.device.headers)).status).toBe(200);
    const localId = `${tmuxM.name}:${pane.paneId}`;
    const leadId = `@workshop/${localId}`;
    await until(lead.hub, 'the member pane on the lead', (h) => h.panes.get(leadId)?.member?.reachable === true && h.panes.get(leadId)?.state === 'idle', 30_000);
    expect(member.crew.link()?.connected).toBe(true);

    // Link up: the lead pushes, its title names the pane and the member; the member does not.
    await pane.draw('permission-edit');
    const blockedAt = await until(member.hub, 'blocked on the member', (h) => (h.panes.get(localId)?.state === 'blocked' ? Date.now() : null), 30_000);
    const first = await service.next((p) => p.sub === 0 && isShow(p), 30_000);
    const ask = shown(first);
    const name = member.hub.panes.get(localId)!.label.trim() || `api:${member.hub.panes.get(localId)!.windowName}`;
    expect(ask.title).toBe(`Permission needed in ${name} on workshop`);
    expect(ask.url).toBe(`#/pane/${encodeURIComponent(leadId)}`);
    // Proving an absence needs a wait: three of the member's own delays past its question.
    await new Promise((r) => setTimeout(r, Math.max(0, blockedAt + 3 * DELAY - Date.now())));
    expect(service.received.filter((p) => p.sub === 1)).toEqual([]);

    // Answered: the lead withdraws its push.
    await pane.draw('fresh-idle');
    await service.next((p) => p.sub === 0 && isWithdraw(p, ask.tag), 30_000);

    // The link drops: the lead greys the pane and leaves it to the member, which pushes in its own words.
    proxy.cut();
    await until(lead.hub, 'the member greyed on the lead', (h) => h.panes.get(leadId)?.member?.reachable === false, 30_000);
    await expect.poll(() => member.crew.link()?.connected, { timeout: 30_000 }).toBe(false);
    const before0 = service.received.filter((p) => p.sub === 0).length;
    await pane.draw('select-menu');
    const own = await service.next((p) => p.sub === 1 && isShow(p), 30_000);
    expect(shown(own).title).not.toContain(' on workshop');
    expect(shown(own).url).toBe(`#/pane/${encodeURIComponent(localId)}`);
    const ownAt = own.at;
    // The lead saw nothing of it (the link is down); nothing from the lead meanwhile.
    expect(service.received.filter((p) => p.sub === 0).length, 'the lead pushed nothing for a member it cannot reach').toBe(before0);

    // The link comes back with the question still open: the member withdraws its push and the
    // lead pushes it after its own delay, so the phone holds one notification for it at a time.
    proxy.heal();
    await until(lead.hub, 'the member back', (h) => h.panes.get(leadId)?.member?.reachable === true, 30_000);
    await service.next((p) => p.sub === 1 && isWithdraw(p, shown(own).tag), 30_000);
    const taken = await service.next((p) => p.sub === 0 && isShow(p) && p.at > ownAt, 30_000);
    expect(shown(taken).title).toMatch(/ on workshop$/);
    const showsOn1 = service.received.filter((p) => p.sub === 1 && isShow(p)).length;
    await pane.draw('fresh-idle');
    await service.next((p) => p.sub === 0 && isWithdraw(p, shown(taken).tag), 30_000);
    expect(service.received.filter((p) => p.sub === 1 && isShow(p)).length).toBe(showsOn1);
  }, 180_000);
});
