import { describe, expect, it } from 'vitest';
import { crewBridge, crewCli, freePort, plainReply, startClaude, startFaultProxy, startMessagesApi, startTmux, tempDir } from '@collie/testkit';
import type { Pane, WalkyMessage } from '@collie/protocol';
import { joinMembers, leadReaches } from './crew-join';
import { until } from './harness';
import { runCli, walkyEnv } from './walky/kit';
import { killed, serveLead, walkyStatus } from './crew-lead-process';


describe('walky across a crew, the lead killed mid-delivery', () => {
  it('kill -9 of the lead while a member types a message: typed once, and the outcome reaches the sender after the restart', async () => {
    await using tmuxL = await startTmux();
    await using tmuxA = await startTmux();
    await using tmuxB = await startTmux();
    await using apiB = await startMessagesApi();
    await using dir = await tempDir('collie-crew-walky-kill-');
    const [sL, sA, sB] = ['lead', 'alpha', 'beta'].map((n) => `${dir.path}/${n}`) as [string, string, string];
    await tmuxL.newSession('l', { cmd: 'cat' });
    await tmuxA.newSession('a', { cmd: 'cat' });
    await using claudeB = await startClaude(tmuxB, apiB, { session: 'beta-work' });
    apiB.setFallback(plainReply('Got it.'));
    const leadPort = await freePort();
    expect((await crewCli(sL, ['create', '--name', 'bluefin', '--listen', `127.0.0.1:${leadPort}`])).code).toBe(0);
    const leadEnv = { ...process.env, TMUX_TMPDIR: tmuxL.tmpDir, COLLIE_NO_SYSTEMD: '1', ...walkyEnv(sL) };
    let lead = await serveLead(leadEnv);
    try {
      await using alpha = await crewBridge(tmuxA.tmpDir, sA, 'minibuch');
      await using beta = await crewBridge(tmuxB.tmpDir, sB, 'workshop');
      const betaPort = await freePort();
      // Both ways between the lead and beta go through a proxy: lead → beta (proxyB), beta → lead (proxyUp).
      await using proxyB = await startFaultProxy(betaPort);
      await using proxyUp = await startFaultProxy(leadPort);
      await joinMembers(sL, [['alpha', sA, alpha, `127.0.0.1:${await freePort()}`, null], ['beta', sB, beta, `127.0.0.1:${betaPort}`, proxyUp.address]]);
      await leadReaches(sL, 'beta', proxyB.address);
      // The lead's who lists beta's pane once beta's stream is up (and the lead has read the proxy address).
      const paneB = await until(beta.hub, 'beta idle', (h) => [...h.panes.values()].find((p: Pane) => p.harness === 'claude' && (p.state === 'idle' || p.state === 'done') && p.draft === null), 60_000);
      const address = paneB.address.replace(/^local\//, 'beta/');
      await expect.poll(async () => (await runCli(['walky', 'who'], walkyEnv(sL))).out, { timeout: 30_000 }).toContain(address);

      // beta's answer to the lead and its crew updates are lost, and the lead dies while it waits for them.
      proxyB.dropDown();
      proxyUp.dropUp();
      const r = await fetch(`${alpha.url}/api/walky/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...alpha.device.headers }, body: JSON.stringify({ to: address, body: 'Survive the lead.' }) });
      const id = ((await r.json()) as { message: WalkyMessage }).message.id;
      await apiB.waitForRequest((q) => q.kind === 'main' && q.prompt.includes(`[walky-talky ${id}]`), 60_000);
      await expect.poll(async () => (await walkyStatus(sB, id))?.state, { timeout: 30_000 }).toBe('delivered');
      // Typed on beta; the lead does not know it yet.
      expect(['accepted', 'unknown']).toContain((await walkyStatus(sL, id))?.state);
      await killed(lead);
      proxyB.heal();
      proxyUp.heal();
      lead = await serveLead(leadEnv);

      // beta kept its outcome until the new lead acked it; the lead passed it on to alpha.
      await expect.poll(async () => (await walkyStatus(sL, id))?.state, { timeout: 60_000 }).toBe('delivered');
      await expect.poll(async () => (await walkyStatus(sA, id))?.state, { timeout: 60_000 }).toBe('delivered');
      expect(await walkyStatus(sB, id)).toMatchObject({ state: 'delivered', verified: 'origin', from: { kind: 'operator', member: 'alpha' } });
      await claudeB.waitForScreen((s) => s.includes('Got it.'));
      expect(apiB.requests.filter((q) => q.kind === 'main' && q.prompt.includes(id))).toHaveLength(1);
      await expect.poll(() => beta.crew.walkyPending()['bluefin'] ?? 0, { timeout: 20_000 }).toBe(0);
    } finally {
      await killed(lead);
    }
  }, 240_000);
});
