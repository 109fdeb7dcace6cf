import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiRequest, ScriptBlock, Turn } from '@collie/testkit';
import { crewBridge, crewCli, freePort, startClaude, startFaultProxy, startMessagesApi, startTmux, tempDir } from '@collie/testkit';
import { walkyWords, type Pane, type WalkyEnvelope, type WalkyMessage } from '@collie/protocol';
import type { Bridge } from '../src/bridge';
import { crewRequest } from '../src/crew/client';
import { readIdentity, loadIdentity } from '../src/crew/identity';
import { readCrew, withCrewLock, writeCrew } from '../src/crew/store';
import { envelopeText, signText } from '../src/crew/walky-sign';
import { joinMembers, leadReaches } from './crew-join';
import { until } from './harness';
import { collieBin, runCli, walkyEnv } from './walky/kit';

const bash = (command: string): Turn => ({ blocks: [{ type: 'tool_use', name: 'Bash', input: { command, description: 'walky talky' } } as ScriptBlock], stopReason: 'tool_use' });
const say = (text: string): Turn => ({ blocks: [{ type: 'text', text }] });
const lastResult = (r: ApiRequest) => r.toolResults[r.toolResults.length - 1]?.text ?? '';
const idleMember = (name: string) => (h: { panes: Map<string, Pane> }) =>
  [...h.panes.values()].find((p) => p.member?.name === name && p.member.reachable && p.harness === 'claude' && (p.state === 'idle' || p.state === 'done') && p.draft === null);

async function phone<T>(b: Bridge & { device: { headers: Record<string, string> } }, path: string, body: unknown): Promise<{ status: number; json: T }> {
  const r = await fetch(`${b.url}/api/walky/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...b.device.headers }, body: JSON.stringify(body) });
  return { status: r.status, json: (await r.json()) as T };
}
const status = async (state: string, id: string) => JSON.parse((await runCli(['walky', 'status', id, '--json'], walkyEnv(state))).out || 'null') as WalkyMessage | null;

describe('walky across a crew, through a fault-injecting proxy', () => {
  it('a member cut mid-broadcast reads member slow, then its next update fills it in; a lost answer is posted again with the same id and typed once; an older member and a clock 11 minutes off are refused; forged and stale messages are refused at the lead', async () => {
    await using tmuxL = await startTmux();
    await using tmuxA = await startTmux();
    await using tmuxB = await startTmux();
    await using tmuxG = await startTmux();
    await using apiA = await startMessagesApi();
    await using apiB = await startMessagesApi();
    await using apiG = await startMessagesApi();
    await using dir = await tempDir('collie-crew-walky-fault-');
    const [sL, sA, sB, sG] = ['lead', 'alpha', 'beta', 'gamma'].map((n) => `${dir.path}/${n}`) as [string, string, string, string];
    const allow = ['Bash(collie walky:*)'];
    const envOf = async (s: string) => ({ ...walkyEnv(s), PATH: `${await collieBin(s)}:${process.env.PATH ?? ''}` });
    await tmuxL.newSession('lead-shell', { cmd: 'cat' });
    await using claudeA = await startClaude(tmuxA, apiA, { env: await envOf(sA), allow, session: 'alpha-work' });
    await using claudeB = await startClaude(tmuxB, apiB, { env: await envOf(sB), allow, session: 'beta-work' });
    await using claudeG = await startClaude(tmuxG, apiG, { env: await envOf(sG), allow, session: 'gamma-work' });
    void claudeB;
    void claudeG;
    await using lead = await crewBridge(tmuxL.tmpDir, sL, 'bluefin');
    await using alpha = await crewBridge(tmuxA.tmpDir, sA, 'minibuch');
    await using beta = await crewBridge(tmuxB.tmpDir, sB, 'workshop');
    // gamma runs a version older than walky across a crew, and its walky clock is 11 minutes ahead.
    await using gamma = await crewBridge(tmuxG.tmpDir, sG, 'attic', { version: '0.0.9', clock: { now: () => Date.now() + 11 * 60_000, setTimer: (fn, ms) => { const t = setTimeout(fn, ms); return () => clearTimeout(t); } } });

    const leadPort = await freePort();
    const created = await crewCli(sL, ['create', '--name', 'bluefin', '--listen', `127.0.0.1:${leadPort}`, '--json']);
    expect(created.code, created.stderr).toBe(0);
    const crewId = (created.json as { crew: string }).crew;
    await lead.crew.reload();
    // alpha reaches the lead through proxyA; the lead reaches beta through proxyB.
    await using proxyA = await startFaultProxy(leadPort);
    const betaPort = await freePort();
    await using proxyB = await startFaultProxy(betaPort);
    await joinMembers(sL, [
      ['alpha', sA, alpha, `127.0.0.1:${await freePort()}`, proxyA.address],
      ['beta', sB, beta, `127.0.0.1:${betaPort}`, null],
      ['gamma', sG, gamma, `127.0.0.1:${await freePort()}`, null],
    ]);
    // The network between the lead and beta is the proxy's (the lead posts to beta's listener).
    await leadReaches(sL, 'beta', proxyB.address);
    await lead.crew.reload();
    const paneA = await until(lead.hub, 'alpha idle on the lead', idleMember('alpha'), 60_000);
    const paneB = await until(lead.hub, 'beta idle on the lead', idleMember('beta'), 60_000);
    const paneG = await until(lead.hub, 'gamma idle on the lead', idleMember('gamma'), 60_000);

    // 1. A broadcast while beta's answers are lost: the lead gives beta 8 s, then says so.
    apiA.setFallback(() => say('Standing by.'));
    apiB.setFallback(() => say('Standing by.'));
    proxyB.dropDown();
    const cast = await phone<{ id: string; messages: WalkyMessage[]; skipped: { address: string }[] }>(lead, 'broadcast', { body: 'Stand by: release at noon.', member: 'all' });
    expect(cast.status).toBe(200);
    const toB = cast.json.messages.find((m) => m.to?.paneId === paneB.id)!;
    const toA = cast.json.messages.find((m) => m.to?.paneId === paneA.id)!;
    expect(walkyWords(toB.state, toB.reason)).toBe('may have arrived, will not be sent again (member slow)');
    expect(toA.state === 'accepted' || toA.state === 'delivered').toBe(true);
    // gamma is older: refused at once, with no dial.
    expect(cast.json.messages.find((m) => m.to?.paneId === paneG.id)).toMatchObject({ state: 'refused', reason: 'older member' });
    expect(cast.json.skipped.map((s) => s.address)).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^${crewId}/`))]));
    // beta did get it, typed it once, and its next crew update fills in the outcome on the lead.
    await apiB.waitForRequest((r) => r.kind === 'main' && r.prompt.includes(`[walky-talky ${toB.id}]`), 60_000);
    proxyB.heal();
    await expect.poll(async () => (await status(sL, toB.id))?.state, { timeout: 60_000 }).toBe('delivered');
    await expect.poll(async () => (await status(sL, toA.id))?.state, { timeout: 60_000 }).toBe('delivered');
    expect(apiB.requests.filter((r) => r.kind === 'main' && r.prompt.includes(toB.id))).toHaveLength(1);
    expect(await status(sB, toB.id)).toMatchObject({ state: 'delivered', verified: 'origin', from: { kind: 'operator', member: 'bluefin' } });
    // The broadcast is one id: on the lead, one line per pane, and the older member's refusal as one line for all its panes.
    const whole = await runCli(['walky', 'status', cast.json.id], walkyEnv(sL));
    expect(whole.code, whole.err).toBe(0);
    expect(whole.out).toBe(`${[cast.json.id, `${toA.to!.pane}  typed into the pane  (this machine)`, `${toB.to!.pane}  typed into the pane  (this machine)`, 'gamma/all  not sent: older member  (this machine)'].join('\n')}\n`);
    await until(lead.hub, 'beta idle again', idleMember('beta'), 60_000);
    await until(lead.hub, 'alpha idle again', idleMember('alpha'), 60_000);

    // 2. alpha's post reaches the lead but the answer is lost: alpha posts it again with the same id.
    apiA.script(() => bash(`collie walky send ${paneB.address} "Lost answers are fine."`), (req) => say(`Sent: ${lastResult(req).split('\n').join(' | ')}`));
    apiB.setFallback(() => say('Fine.'));
    proxyA.dropDown();
    await claudeA.submit('tell beta about lost answers');
    const sent = await apiA.waitForRequest((r) => r.kind === 'main' && /wt_[a-z0-9]{12}/.test(lastResult(r)), 90_000);
    const id = lastResult(sent).trim().split('\n')[0]!;
    // The outcome comes back on the lead's own post to alpha, whatever happened to alpha's post.
    await expect.poll(async () => (await status(sA, id))?.state, { timeout: 60_000 }).toBe('delivered');
    await expect.poll(() => lead.crew.walkyPosts(id), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    proxyA.heal();
    await apiB.waitForRequest((r) => r.kind === 'main' && r.prompt.includes(`[walky-talky ${id}]`), 60_000);
    expect(apiB.requests.filter((r) => r.kind === 'main' && r.prompt.includes(`[walky-talky ${id}]`))).toHaveLength(1);
    expect(await status(sA, id)).toMatchObject({ state: 'delivered', verified: 'local' });

    // 3. An older member, from the lead's phone: not sent, older member, at once.
    const old = await phone<{ message: WalkyMessage }>(lead, 'send', { to: paneG.address, body: 'Are you there?' });
    expect(old.json.message).toMatchObject({ state: 'refused', reason: 'older member' });
    expect([...gamma.hub.sends.values()].flat()).toHaveLength(0);

    // 4. gamma's clock is 11 minutes off: its message is refused stale.
    const skewed = await phone<{ message: WalkyMessage }>(gamma, 'send', { to: paneA.address, body: 'From the future.' });
    expect(skewed.status).toBe(200);
    await expect.poll(async () => (await status(sG, skewed.json.message.id))?.reason, { timeout: 30_000 }).toBe('stale');
    expect(walkyWords('refused', 'stale')).toBe('not sent: stale');

    // 5. At the lead: a message signed with another key, one sent as another machine, one stale.
    const idA = (await readIdentity(sA))!;
    const certPem = await readFile(join(sL, 'crew', 'identity.crt'), 'utf8');
    const env: WalkyEnvelope = { v: 1, id: 'wt_forgedforge1', at: Date.now(), origin: 'alpha', from: { kind: 'agent', address: paneA.address.replace(/^alpha/, 'alpha'), member: 'alpha' }, to: paneB.address, replyTo: null, body: 'forged' };
    const other = await loadIdentity(`${dir.path}/stranger`, 'stranger');
    const post = (body: unknown) => crewRequest({ id: idA, certPem, listen: `127.0.0.1:${leadPort}`, method: 'POST', path: '/crew/v1/walky/send', body });
    const forged = await post({ envelope: env, sig: signText(envelopeText(env), other.privateKey) });
    expect([forged.status, (forged.json as { error: { code: string } }).error.code]).toEqual([401, 'bad_signature']);
    const posing = { ...env, origin: 'beta' };
    const asBeta = await post({ envelope: posing, sig: signText(envelopeText(posing), idA.privateKey) });
    expect([asBeta.status, (asBeta.json as { error: { code: string } }).error.code]).toEqual([400, 'bad_request']);
    const old11 = { ...env, id: 'wt_stalestale12', at: Date.now() - 11 * 60_000 };
    const stale = await post({ envelope: old11, sig: signText(envelopeText(old11), idA.privateKey) });
    expect(stale.status).toBe(200);
    expect((stale.json as { messages: WalkyMessage[] }).messages[0]).toMatchObject({ state: 'refused', reason: 'stale' });
    const junk = await post({ envelope: { ...env, body: 5 }, sig: 'x' });
    expect([junk.status, (junk.json as { error: { code: string } }).error.code]).toEqual([400, 'bad_request']);
    expect(apiB.requests.filter((r) => r.prompt.includes('wt_forgedforge1') || r.prompt.includes('wt_stalestale12'))).toHaveLength(0);
  }, 400_000);

  it('a member under an older lead: not sent, older lead', async () => {
    await using tmuxL = await startTmux();
    await using tmuxD = await startTmux();
    await using dir = await tempDir('collie-crew-walky-oldlead-');
    await tmuxL.newSession('l', { cmd: 'cat' });
    await tmuxD.newSession('d', { cmd: 'cat' });
    await using lead = await crewBridge(tmuxL.tmpDir, `${dir.path}/lead`, 'oldlead', { version: '0.0.9' });
    await using delta = await crewBridge(tmuxD.tmpDir, `${dir.path}/delta`, 'delta');
    const created = await crewCli(`${dir.path}/lead`, ['create', '--name', 'oldlead', '--listen', `127.0.0.1:${await freePort()}`, '--json']);
    expect(created.code, created.stderr).toBe(0);
    await lead.crew.reload();
    const token = ((await crewCli(`${dir.path}/lead`, ['invite', '--json'])).json as { token: string }).token;
    expect((await crewCli(`${dir.path}/delta`, ['join', token, '--name', 'delta', '--listen', `127.0.0.1:${await freePort()}`])).code).toBe(0);
    await delta.crew.reload();
    const crewId = (created.json as { crew: string }).crew;
    const leadPane = [...lead.hub.panes.values()].find((p) => !p.member)!;
    const sent = await phone<{ message: WalkyMessage }>(delta, 'send', { to: leadPane.address.replace(/^local\//, `${crewId}/`), body: 'hello lead' });
    expect(sent.json.message).toMatchObject({ state: 'refused', reason: 'older lead' });
    expect(walkyWords(sent.json.message.state, sent.json.message.reason)).toBe('not sent: older lead');
    // A broadcast from the member under the older lead: one line for what it could not reach.
    const cast = await phone<{ id: string; messages: WalkyMessage[] }>(delta, 'broadcast', { body: 'hello all', member: 'all' });
    expect(cast.status).toBe(200);
    expect(cast.json.messages).toEqual([expect.objectContaining({ state: 'refused', reason: 'older lead', to: expect.objectContaining({ pane: 'oldlead/all', member: 'oldlead' }) })]);
    const lines = await runCli(['walky', 'status', cast.json.id], walkyEnv(`${dir.path}/delta`));
    expect(lines.out.trimEnd().split('\n')).toEqual([cast.json.id, 'oldlead/all  not sent: older lead  (this machine)']);
  }, 120_000);
});
