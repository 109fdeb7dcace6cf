import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crewBridge, freePort, heldTurn, plainReply, startFaultProxy } from '@collie/testkit';
import type { ChildProcess } from 'node:child_process';
import type { WalkyMessage } from '@collie/protocol';
import { joinMembers } from './crew-join';
import { crewLeadDesk, killed, walkyStatus, type CrewLeadDesk } from './crew-lead-process';

/** Stops a process with SIGTERM (the bridge's graceful stop) and resolves once it has exited. */
const termed = (c: ChildProcess): Promise<unknown> => new Promise((r) => (c.kill('SIGTERM'), c.once('exit', r)));

/**
 * A lead (its own process, so it can be stopped) with a real Claude Code pane in a turn that
 * works until the test lets it go, and member beta that reaches it through a fault proxy, as the
 * soak's member does. `send` posts beta's message to the lead's pane once the turn is under way.
 */
async function crewWithBusyLead(run: (c: {
  sL: string; sB: string; id: string; target: string; restart: CrewLeadDesk['restartLead'];
  release: () => void; typed: () => number; dropPane: () => PromiseLike<void>; waitReply: () => Promise<void>; proxyUp: Awaited<ReturnType<typeof startFaultProxy>>;
}) => Promise<void>): Promise<void> {
  await using desk = await crewLeadDesk('collie-crew-walky-stop-');
  const { sL, sB, apiL, claudeL } = desk;
  await using beta = await crewBridge(desk.tmuxB.tmpDir, sB, 'workshop');
  await using proxyUp = await startFaultProxy(desk.leadPort);
  await joinMembers(sL, [['beta', sB, beta, `127.0.0.1:${await freePort()}`, proxyUp.address]]);
  const target = (await desk.leadAgent()).address;

  using turn = heldTurn('Long turn over.');
  apiL.script(turn.script, plainReply('Got it.'));
  await claudeL.submit('start a long turn');
  await apiL.waitForRequest((q) => q.kind === 'main' && q.prompt.includes('start a long turn'), 30_000);
  const r = await fetch(`${beta.url}/api/walky/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...beta.device.headers }, body: JSON.stringify({ to: target, body: 'Outlast the stop.' }) });
  const id = ((await r.json()) as { message: WalkyMessage }).message.id;
  await expect.poll(async () => (await walkyStatus(sL, id))?.state, { timeout: 30_000 }).toBe('accepted');
  await run({
    sL, sB, id, target, proxyUp,
    restart: desk.restartLead,
    release: () => turn.release(),
    typed: () => apiL.requests.filter((q) => q.kind === 'main' && q.prompt.includes(`[walky-talky ${id}]`)).length,
    dropPane: () => claudeL[Symbol.asyncDispose](),
    waitReply: async () => void (await claudeL.waitForScreen((s) => s.includes('Got it.'))),
  });
}

// Found by the soak (seed 2026): a member's message to a lead's pane, typed there once, the
// member told "delivered", while the lead's own record of it read "accepted" with no body and no
// pane for good: what the lead's seen.json kept once its log no longer held the message.
describe("walky across a crew, the lead stopped while it holds a member's message", () => {
  it('SIGTERM and kill -9 of the lead while its pane is busy, the answers lost: typed once after the restarts, and both machines end with the same final receipt', async () => {
    await crewWithBusyLead(async (c) => {
      // The lead's answers to beta are lost: beta posts the message again to each lead in turn.
      c.proxyUp.dropDown();
      await c.restart(killed);
      await expect.poll(async () => (await walkyStatus(c.sL, c.id))?.state, { timeout: 30_000 }).toBe('accepted');
      await c.restart(termed);
      c.proxyUp.heal();
      c.release();
      await expect.poll(async () => (await walkyStatus(c.sB, c.id))?.state, { timeout: 60_000 }).toBe('delivered');
      await expect.poll(async () => (await walkyStatus(c.sL, c.id))?.state, { timeout: 30_000 }).toBe('delivered');
      expect(await walkyStatus(c.sL, c.id)).toMatchObject({ body: 'Outlast the stop.', to: { address: c.target }, from: { member: 'beta' } });
      await c.waitReply();
      expect(c.typed()).toBe(1);
    });
  }, 240_000);

  it("kill -9 between the log's line and seen.json: once the pane's inbox is gone, the lead still answers the message's final receipt", async () => {
    await crewWithBusyLead(async (c) => {
      // seen.json as it stood while the message waited: what a kill -9 after the log's
      // "delivered" line and before seen.json's rename leaves on disk.
      const seenPath = join(c.sL, 'walky', 'seen.json');
      const seenWhileAccepted = await readFile(seenPath, 'utf8');
      c.release();
      await expect.poll(async () => (await walkyStatus(c.sL, c.id))?.state, { timeout: 60_000 }).toBe('delivered');
      await expect.poll(async () => (await walkyStatus(c.sB, c.id))?.state, { timeout: 60_000 }).toBe('delivered');
      await c.restart(killed, () => writeFile(seenPath, seenWhileAccepted));
      expect((await walkyStatus(c.sL, c.id))?.state).toBe('delivered');
      // The pane goes; 30 s later its inbox goes with it, and the lead answers from seen.json.
      await c.dropPane();
      await expect.poll(async () => (await walkyStatus(c.sL, c.id))?.to ?? null, { timeout: 90_000, interval: 1000 }).toBeNull();
      expect(await walkyStatus(c.sL, c.id)).toMatchObject({ id: c.id, state: 'delivered' });
      expect(await walkyStatus(c.sB, c.id)).toMatchObject({ state: 'delivered' });
      expect(c.typed()).toBe(1);
    });
  }, 240_000);
});
