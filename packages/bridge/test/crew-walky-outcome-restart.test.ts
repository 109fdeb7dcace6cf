import { describe, expect, it } from 'vitest';
import { crewBridge, freePort, longTurn, plainReply, startFaultProxy } from '@collie/testkit';
import type { WalkyMessage } from '@collie/protocol';
import { joinMembers, leadReaches } from './crew-join';
import { crewLeadDesk, killed, walkyStatus } from './crew-lead-process';


// Found by the soak: a member's message the lead typed into its own pane while it could not
// reach the member kept its outcome in the lead's memory only; the lead killed with -9 before
// the member took it, the member's receipt stayed "accepted" for good.
describe('walky across a crew, the lead killed with an outcome not yet taken', () => {
  it('the restarted lead sends the member the outcome of a message it typed before it died', async () => {
    await using desk = await crewLeadDesk('collie-crew-outcome-kill-');
    const { sL, sB, apiL, claudeL } = desk;
    // The lead's agent is in a long turn when the message comes: the lead holds it, and beta's
    // send is answered "accepted"; its outcome follows once the turn ends.
    await using beta = await crewBridge(desk.tmuxB.tmpDir, sB, 'workshop');
    const betaPort = await freePort();
    // The lead reaches beta through a proxy the test cuts.
    await using proxyB = await startFaultProxy(betaPort);
    await joinMembers(sL, [['beta', sB, beta, `127.0.0.1:${betaPort}`, null]]);
    await leadReaches(sL, 'beta', proxyB.address);
    // The lead's agent pane: its address on the lead carries the crew id, as beta reaches it.
    const target = await desk.leadAgent();

    apiL.script(longTurn(6000, 'Long turn over.'), plainReply('Got it.'));
    await claudeL.submit('start a long turn');
    await apiL.waitForRequest((q) => q.kind === 'main' && q.prompt.includes('start a long turn'), 30_000);
    const r = await fetch(`${beta.url}/api/walky/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...beta.device.headers }, body: JSON.stringify({ to: target.address, body: 'Outlive the lead.' }) });
    const id = ((await r.json()) as { message: WalkyMessage }).message.id;
    expect((await walkyStatus(sB, id))?.state).toBe('accepted');
    // The lead cannot reach beta when the turn ends and it types the message.
    proxyB.cut();
    await apiL.waitForRequest((q) => q.kind === 'main' && q.prompt.includes(`[walky-talky ${id}]`), 60_000);
    await expect.poll(async () => (await walkyStatus(sL, id))?.state, { timeout: 30_000 }).toBe('delivered');
    expect((await walkyStatus(sB, id))?.state).toBe('accepted');
    await desk.restartLead(killed, async () => proxyB.heal());

    await expect.poll(async () => (await walkyStatus(sB, id))?.state, { timeout: 60_000 }).toBe('delivered');
    expect(apiL.requests.filter((q) => q.kind === 'main' && q.prompt.includes(id))).toHaveLength(1);
  }, 240_000);
});
