import { describe, expect, it } from 'vitest';
import { crewBridge, freePort, crewCli, startTmux, tempDir } from '@collie/testkit';
import type { WalkyMessage } from '@collie/protocol';
import { joinMembers } from './crew-join';
import { until } from './harness';
import { runCli, walkyEnv } from './walky/kit';

async function cast(b: { url: string; device: { headers: Record<string, string> } }, member: string): Promise<{ id: string; messages: WalkyMessage[] }> {
  const r = await fetch(`${b.url}/api/walky/broadcast`, { method: 'POST', headers: { 'content-type': 'application/json', ...b.device.headers }, body: JSON.stringify({ body: 'Freeze merges.', member }) });
  expect(r.status).toBe(200);
  return (await r.json()) as { id: string; messages: WalkyMessage[] };
}
const statusLines = async (state: string, id: string) => {
  const r = await runCli(['walky', 'status', id], walkyEnv(state));
  expect(r.code, r.err).toBe(0);
  return r.out.trimEnd().split('\n');
};

describe('a broadcast names every machine it did not reach, with one <machine>/all line', () => {
  it('a member with shells only and one never seen on the lead each get a line; a member whose lead is gone gets <lead>/all lead unreachable', async () => {
    await using tmuxL = await startTmux();
    await using tmuxD = await startTmux();
    await using dir = await tempDir('collie-crew-walky-whole-');
    await tmuxL.newSession('l', { cmd: 'cat' });
    await tmuxD.newSession('d', { cmd: 'cat' });
    const [sL, sD, sE] = ['lead', 'delta', 'echo'].map((n) => `${dir.path}/${n}`) as [string, string, string];
    await using lead = await crewBridge(tmuxL.tmpDir, sL, 'bluefin');
    await using delta = await crewBridge(tmuxD.tmpDir, sD, 'delta');
    const created = await crewCli(sL, ['create', '--name', 'bluefin', '--listen', `127.0.0.1:${await freePort()}`, '--json']);
    expect(created.code, created.stderr).toBe(0);
    await lead.crew.reload();
    // echo joins and never runs a bridge: the lead has never seen it, nor any pane of it.
    await joinMembers(sL, [
      ['delta', sD, delta, `127.0.0.1:${await freePort()}`, null],
      ['echo', sE, { crew: { reload: async () => undefined } } as never, `127.0.0.1:${await freePort()}`, null],
    ]);
    await until(lead.hub, "delta's shell on the lead", (h) => [...h.panes.values()].find((p) => p.member?.name === 'delta' && p.member.reachable), 30_000);

    // The lead's own broadcast: delta shows shells only, echo was never reachable.
    const fromLead = await cast(lead, 'all');
    expect(await statusLines(sL, fromLead.id)).toEqual([fromLead.id, 'delta/all  not sent: no agent panes  (this machine)', 'echo/all  not sent: member unreachable  (this machine)']);
    // To one machine: only its line.
    const toEcho = await cast(lead, 'echo');
    expect(await statusLines(sL, toEcho.id)).toEqual([toEcho.id, 'echo/all  not sent: member unreachable  (this machine)']);

    // delta's broadcast: the lead names echo as one line (delta's own shells are skipped).
    const fromDelta = await cast(delta, 'all');
    expect(await statusLines(sD, fromDelta.id)).toEqual([fromDelta.id, 'echo/all  not sent: member unreachable  (this machine)']);

    // The lead goes away: delta's broadcast says so for everything beyond itself.
    await lead.stop();
    const alone = await cast(delta, 'all');
    expect(alone.messages).toHaveLength(1);
    expect(alone.messages[0]).toMatchObject({ state: 'refused', reason: 'lead unreachable', to: { member: 'bluefin', pane: 'bluefin/all' }, broadcast: alone.id });
    expect(await statusLines(sD, alone.id)).toEqual([alone.id, 'bluefin/all  not sent: lead unreachable  (this machine)']);
  }, 180_000);
});
