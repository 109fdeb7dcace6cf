import { describe, expect, it } from 'vitest';
import { crewBridge, startClaude, startMessagesApi, startTmux, tempDir } from '@collie/testkit';
import type { Pane, WalkyMessage } from '@collie/protocol';
import { until } from './harness';
import { formCrew } from './crew-join';
import { bash, collieBin, idIn, lastResult, runCli, say, sentReceipt, walkyEnv } from './walky/kit';

const idleMember = (name: string) => (h: { panes: Map<string, Pane> }) =>
  [...h.panes.values()].find((p) => p.member?.name === name && p.member.reachable && p.harness === 'claude' && (p.state === 'idle' || p.state === 'done') && p.draft === null);

describe('walky across a crew of three bridges on this machine', () => {
  it("a member's agent messages another member's pane through the lead, and the reply comes back; receipts, verified and status lines on each machine", async () => {
    await using tmuxL = await startTmux();
    await using tmuxA = await startTmux();
    await using tmuxB = await startTmux();
    await using apiA = await startMessagesApi();
    await using apiB = await startMessagesApi();
    await using dir = await tempDir('collie-crew-walky-');
    const [sL, sA, sB] = ['lead', 'alpha', 'beta'].map((n) => `${dir.path}/${n}`) as [string, string, string];
    const allow = ['Bash(collie walky:*)'];
    const envOf = async (s: string) => ({ ...walkyEnv(s), PATH: `${await collieBin(s)}:${process.env.PATH ?? ''}` });
    await tmuxL.newSession('lead-shell', { cmd: 'cat' });
    await using claudeA = await startClaude(tmuxA, apiA, { env: await envOf(sA), allow, session: 'alpha-work' });
    await using claudeB = await startClaude(tmuxB, apiB, { env: await envOf(sB), allow, session: 'beta-work' });
    await using lead = await crewBridge(tmuxL.tmpDir, sL, 'bluefin');
    await using alpha = await crewBridge(tmuxA.tmpDir, sA, 'minibuch');
    await using beta = await crewBridge(tmuxB.tmpDir, sB, 'workshop');

    const crewId = await formCrew(sL, lead, 'bluefin', [['alpha', sA, alpha], ['beta', sB, beta]]);
    const paneA = await until(lead.hub, 'alpha idle on the lead', idleMember('alpha'), 60_000);
    const paneB = await until(lead.hub, 'beta idle on the lead', idleMember('beta'), 60_000);
    expect(paneB.address).toMatch(/^beta\/.+#[a-z0-9]{4}$/);

    // who on the lead lists every machine's agent panes; the lead's own would carry the crew id.
    const whoLead = await runCli(['walky', 'who', '--json'], walkyEnv(sL));
    expect(whoLead.code, whoLead.err).toBe(0);
    const rows = (JSON.parse(whoLead.out) as { panes: { address: string; machine: string; state: string }[] }).panes;
    expect(rows.map((r) => r.address)).toEqual(expect.arrayContaining([paneA.address, paneB.address]));
    expect(rows.find((r) => r.address === paneB.address)).toMatchObject({ machine: 'beta' });

    apiA.script(
      () => bash('collie walky who'),
      () => bash(`collie walky send ${paneB.address} "Tests are green on fix-465. You can merge."`),
      (req) => say(`Sent: ${lastResult(req).split('\n').join(' | ')}`),
    );
    apiA.setFallback(() => say('Noted the reply.'));
    apiB.script(
      (req) => bash(`collie walky inbox ${idIn(req.prompt)}`),
      (req) => bash(`collie walky reply ${idIn(lastResult(req))} "Merged. Thanks."`),
      (req) => say(`Replied: ${lastResult(req).split('\n').join(' | ')}`),
    );
    await claudeA.submit('tell the beta pane the tests are green');

    // who on a member: its own panes under its name, then the line that points at the lead.
    const whoA = await apiA.waitForRequest((r) => r.kind === 'main' && lastResult(r).includes('other machines'), 90_000);
    expect(lastResult(whoA)).toContain('other machines: run `collie walky who` on the lead (bluefin), or use the phone');
    expect(lastResult(whoA)).toMatch(/alpha\/\S+#[a-z0-9]{4}/);
    expect(lastResult(whoA)).not.toContain(paneB.address);

    // send on the member waits for the outcome that comes back through the lead.
    const id = await sentReceipt(apiA, paneB, 90_000);

    // beta's model got the one-line header naming alpha's pane, and read the body from its inbox.
    const atB = await apiB.waitForRequest((r) => r.kind === 'main' && r.prompt.includes(`[walky-talky ${id}]`), 60_000);
    expect(atB.prompt.replace(/\s+/g, ' ')).toContain(`[walky-talky ${id}] from agent alpha/`);
    expect(atB.prompt).not.toContain('Tests are green');
    await apiB.waitForRequest((r) => r.kind === 'main' && lastResult(r).includes('Tests are green on fix-465'), 60_000);
    const repliedB = await apiB.waitForRequest((r) => r.kind === 'main' && lastResult(r).includes('typed into the pane'), 90_000);
    const replyId = lastResult(repliedB).trim().split('\n')[0]!;
    expect(lastResult(repliedB)).toContain(`to alpha/`);

    // The reply reached alpha's pane as its next prompt, "reply to" the first id.
    const atA = await apiA.waitForRequest((r) => r.kind === 'main' && r.prompt.includes(`[walky-talky ${replyId}]`), 90_000);
    expect(atA.prompt.replace(/\s+/g, ' ')).toMatch(new RegExp(`from agent beta/\\S+ \\(claude, [^)]*\\) reply to ${id}`));

    // One log per machine, the crew fields in it: how each machine knew the sender.
    const status = async (state: string, mid: string) => {
      const j = await runCli(['walky', 'status', mid, '--json'], walkyEnv(state));
      expect(j.code, j.err).toBe(0);
      const text = await runCli(['walky', 'status', mid], walkyEnv(state));
      return { m: JSON.parse(j.out) as WalkyMessage, lines: text.out.trim().split('\n') };
    };
    const onA = await status(sA, id);
    expect(onA.m).toMatchObject({ state: 'delivered', verified: 'local', from: { member: 'alpha' } });
    expect(onA.lines).toEqual([id, `${paneB.address.replace(/#.*$/, '')}  typed into the pane  (this machine)`]);
    const onLead = await status(sL, id);
    expect(onLead.m).toMatchObject({ state: 'delivered', verified: 'origin', from: { member: 'alpha' }, to: { member: 'beta' } });
    expect(onLead.lines[1]).toContain('(signed by alpha)');
    const onB = await status(sB, id);
    expect(onB.m).toMatchObject({ state: 'delivered', verified: 'origin', from: { member: 'alpha', kind: 'agent' }, body: 'Tests are green on fix-465. You can merge.' });
    expect(onB.lines[1]).toMatch(/^beta\/\S+ {2}typed into the pane {2}\(signed by alpha\)$/);
    const replyOnA = await status(sA, replyId);
    expect(replyOnA.m).toMatchObject({ verified: 'origin', from: { member: 'beta' }, replyTo: id, body: 'Merged. Thanks.' });
    expect(replyOnA.lines[1]).toContain('(signed by beta)');
    // The lead's phone reads beta's pane's list from beta's own log, its pane ids as the lead knows them.
    const listed = await fetch(`${lead.url}/api/walky/messages?pane=${encodeURIComponent(paneB.id)}`, { headers: lead.device.headers });
    expect(listed.status).toBe(200);
    const fromBeta = (await listed.json()) as { machine: string; messages: WalkyMessage[] };
    expect(fromBeta.machine).toBe('beta');
    expect(fromBeta.messages.find((m) => m.id === id)).toMatchObject({ verified: 'origin', from: { member: 'alpha' }, to: { paneId: paneB.id, member: 'beta' }, body: 'Tests are green on fix-465. You can merge.' });
    expect(fromBeta.messages.find((m) => m.id === replyId)).toMatchObject({ from: { paneId: paneB.id }, replyTo: id });
    // The outcome came back and was acked: nothing left waiting on either side.
    await expect.poll(() => ({ ...alpha.crew.walkyPending(), ...beta.crew.walkyPending(), ...lead.crew.walkyPending() }), { timeout: 20_000 }).toSatisfy((p: Record<string, number>) => Object.values(p).every((n) => n === 0));
    expect(crewId).toMatch(/^collie-/);
  }, 300_000);
});
