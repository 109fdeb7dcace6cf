import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { artifactPath, crewBridge, crewCli, freePort, launchChromium, phoneContext, plainReply, startClaude, startMessagesApi, startTmux, tempDir, type ScriptBlock, type Turn } from '@collie/testkit';
import type { WalkyEnvelope, WalkyMessage } from '@collie/protocol';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { crewRequest } from '../../bridge/src/crew/client';
import { loadIdentity, readIdentity } from '../../bridge/src/crew/identity';
import { readCrew } from '../../bridge/src/crew/store';
import { envelopeText, leadText, signText } from '../../bridge/src/crew/walky-sign';
import { joinMembers } from '../../bridge/test/crew-join';
import { fakePane } from '../../bridge/test/walky/fake-pane';
import { collieBin, runCli, walkyEnv } from '../../bridge/test/walky/kit';
import { axeBoth, buildWeb, showTerminal, untilPane, openPaneMenu } from './e2e-setup';

const bash = (command: string): Turn => ({ blocks: [{ type: 'tool_use', name: 'Bash', input: { command, description: 'walky talky' } } as ScriptBlock], stopReason: 'tool_use' });
const say = (text: string): Turn => ({ blocks: [{ type: 'text', text }] });
const status = async (state: string, id: string) => {
  const j = await runCli(['walky', 'status', id, '--json'], walkyEnv(state));
  const text = await runCli(['walky', 'status', id], walkyEnv(state));
  return { code: j.code, m: j.code === 0 ? (JSON.parse(j.out) as WalkyMessage) : null, lines: text.out.trimEnd().split('\n'), err: text.err };
};

/** The card of message `id` in the pane's Chat, its words and body, with screenshots in both themes. */
async function cardOf(page: Page, id: string, shot: string): Promise<{ title: string | null; known: string | null; body: string | null }> {
  const card = page.locator(`.pane-chat .wk-card[data-message="${id}"]`);
  await card.waitFor({ timeout: 90_000 });
  await card.scrollIntoViewIfNeeded();
  const got = { title: await card.locator('.wk-card-title').textContent(), known: await card.locator('.wk-known').textContent(), body: await card.locator('.wk-card-body').textContent() };
  expect(await card.locator('.wk-known').evaluate((el) => [...el.childNodes].every((n) => n.nodeType === Node.TEXT_NODE))).toBe(true);
  await axeBoth(page, '.pane-chat');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: artifactPath(`web/${shot}-${scheme}.png`) });
  }
  return got;
}

describe("a member's own log: a message relayed by an older lead, its card on the member's and on the lead's phone, and the phone's reply through the lead", () => {
  it('an older lead passes a message on without the sender\'s certificate: verified lead, "relayed by the lead" in status and on both cards; a reply from the lead\'s phone to a message only the member\'s log holds reaches the pane that sent it', async () => {
    await using work = await tempDir('collie-web-crew-walky-log-');
    const dist = join(work.path, 'dist');
    await buildWeb(dist);
    await using tmuxL = await startTmux();
    await using tmuxD = await startTmux();
    await using api = await startMessagesApi({ fallback: plainReply('Noted.') });
    const [sL, sD] = ['lead', 'delta'].map((n) => join(work.path, n)) as [string, string];
    await tmuxL.newSession('desk', { cmd: 'cat' });
    const env = { ...walkyEnv(sD), PATH: `${await collieBin(sD)}:${process.env.PATH ?? ''}` };
    await using claude = await startClaude(tmuxD, api, { session: 'target', env, allow: ['Bash(collie walky:*)'] });
    const other = await fakePane(tmuxD, work.path, 'other');
    await using lead = await crewBridge(tmuxL.tmpDir, sL, 'bluefin', { webDir: dist });
    await using delta = await crewBridge(tmuxD.tmpDir, sD, 'cellar', { webDir: dist });
    expect((await crewCli(sL, ['create', '--name', 'bluefin', '--listen', `127.0.0.1:${await freePort()}`])).code).toBe(0);
    await lead.crew.reload();
    await joinMembers(sL, [['delta', sD, delta, `127.0.0.1:${await freePort()}`, null]]);
    const id = `${tmuxD.name}:${claude.paneId}`;
    const T = await untilPane(delta.hub, 'the idle Claude pane', (p) => p.id === id && p.harness === 'claude' && (p.state === 'idle' || p.state === 'done') && p.draft === null, 60_000);
    const F = await untilPane(delta.hub, 'the other pane', (p) => p.tmuxId === other.paneId && p.harness === 'claude', 60_000);
    await untilPane(lead.hub, 'delta on the lead', (p) => p.id === `@delta/${id}` && p.member?.reachable === true, 60_000);

    // 1. The test plays an older lead at the wire: it passes alpha's message on with the lead's own
    // word (the key delta pinned at join) and no certificate for alpha, as a lead before certificates did.
    const leadId = (await readIdentity(sL))!;
    const alphaKey = await loadIdentity(join(work.path, 'alpha-key'), 'alpha');
    const crewD = await readCrew(sD);
    if (crewD?.role !== 'member') throw new Error('delta did not join');
    const certD = await readFile(join(sD, 'crew', 'identity.crt'), 'utf8');
    const mid = 'wt_olderlead0a1';
    const envelope: WalkyEnvelope = {
      v: 1, id: mid, at: Date.now(), origin: 'alpha',
      from: { kind: 'agent', address: 'alpha/%3#k2p9', paneId: 'alpha-tmux:%3', token: '#k2p9', harness: 'claude', label: 'walky-live', member: 'alpha' },
      to: T.address.replace(/^local\//, 'delta/'), replyTo: null, body: 'The build on alpha is green.',
    };
    const sig = signText(envelopeText(envelope), alphaKey.privateKey);
    const item = { envelope, sig, pane: id, lead_sig: signText(leadText(envelope, sig, undefined, 'delta', id), leadId.privateKey) };
    const posted = await crewRequest({ id: leadId, certPem: certD, listen: crewD.listen, method: 'POST', path: '/crew/v1/walky/deliver', body: { items: [item] } });
    expect(posted.status).toBe(200);
    expect((posted.json as { messages: WalkyMessage[] }).messages[0]).toMatchObject({ id: mid, verified: 'lead', state: 'accepted', to: { paneId: id } });
    // delta typed it into the real pane: its model got the header, the receipt says how it was known.
    await api.waitForRequest((q) => q.kind === 'main' && q.prompt.includes(`[walky-talky ${mid}]`), 90_000);
    await expect.poll(async () => (await status(sD, mid)).m?.state, { timeout: 60_000 }).toBe('delivered');
    const onD = await status(sD, mid);
    expect(onD.m).toMatchObject({ verified: 'lead', from: { member: 'alpha' } });
    expect(onD.lines).toEqual([mid, `${T.address.replace(/^local\//, 'delta/').replace(/#.*$/, '')}  typed into the pane  (relayed by the lead)`]);
    // Only delta's log holds it: the lead never saw it.
    expect((await status(sL, mid)).code).toBe(3);

    await using browser = await launchChromium();
    // 2. delta's own phone: the card says "relayed by the lead".
    {
      await using context = await phoneContext(browser, { baseURL: delta.url });
      await context.addCookies([delta.device.cookie(delta.url)]);
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      await page.goto(`/#/pane/${encodeURIComponent(id)}`);
      const card = await cardOf(page, mid, 'crew-walky-older-lead-card');
      expect(card).toEqual({ title: 'Message from walky-live', known: 'relayed by the lead', body: 'The build on alpha is green.' });
    }
    // 3. The lead's phone, on delta's pane: the card read from delta's own log, through the lead.
    {
      await using context = await phoneContext(browser, { baseURL: lead.url });
      await context.addCookies([lead.device.cookie(lead.url)]);
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      await page.goto(`/#/pane/${encodeURIComponent(`@delta/${id}`)}`);
      const card = await cardOf(page, mid, 'crew-walky-lead-member-card');
      expect(card).toEqual({ title: 'Message from walky-live', known: 'relayed by the lead', body: 'The build on alpha is green.' });
      // The header on screen is in delta's log: no "no log record on this machine" mark for it.
      await page.locator(`.wk-pane .wk-card[data-message="${mid}"]`).waitFor({ state: 'attached', timeout: 60_000 });
      expect(await page.locator('.wk-unlogged', { hasText: mid }).count()).toBe(0);
      // The Terminal view marks the row that prints the header: the id is in delta's log.
      await showTerminal(page);
      await page.locator(`.term .term-wk-row[data-message="${mid}"]`).first().waitFor({ timeout: 60_000 });
      await page.screenshot({ path: artifactPath('web/crew-walky-lead-member-terminal.png') });
    }

    // 4. delta's agent messages delta's other pane: a message only delta's log holds.
    await untilPane(delta.hub, 'the Claude pane idle again', (p) => p.id === id && (p.state === 'idle' || p.state === 'done') && p.draft === null, 60_000);
    api.script(() => bash(`collie walky send ${F.address} "Can you take the parser?"`), () => say('Sent.'));
    await claude.submit('ask the other pane to take the parser');
    const sentReq = await api.waitForRequest((q) => q.kind === 'main' && /wt_[a-z0-9]{12}/.test(q.toolResults[q.toolResults.length - 1]?.text ?? ''), 90_000);
    const asked = /wt_[a-z0-9]{12}/.exec(sentReq.toolResults[sentReq.toolResults.length - 1]!.text)![0];
    expect((await status(sL, asked)).code).toBe(3);
    // Without an address the lead cannot know where a reply to it goes.
    const reply = (body: unknown) => fetch(`${lead.url}/api/walky/send`, { method: 'POST', headers: { 'content-type': 'application/json', ...lead.device.headers }, body: JSON.stringify(body) });
    expect((await reply({ reply_to: asked, body: 'Yes.' })).status).toBe(404);
    // The lead's phone, on delta's other pane: its Messages sheet lists it from delta's log, and Reply answers it.
    {
      await using context = await phoneContext(browser, { baseURL: lead.url });
      await context.addCookies([lead.device.cookie(lead.url)]);
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      await page.goto(`/#/pane/${encodeURIComponent(`@delta/${F.id}`)}`);
      await openPaneMenu(page);
      await page.getByRole('button', { name: 'Messages' }).click();
      const row = page.locator(`.wk-sheet [data-row="${asked}"]`);
      await row.waitFor({ timeout: 60_000 });
      expect(await row.locator('.wk-card-body').textContent()).toBe('Can you take the parser?');
      await row.getByRole('button', { name: 'Reply' }).click();
      await page.getByLabel(`Reply to ${asked}`).fill('Yes, take the parser.');
      await page.screenshot({ path: artifactPath('web/crew-walky-member-sheet-reply.png') });
      await page.getByRole('button', { name: 'Send reply' }).click();
      const line = row.locator('.wk-receipt-text');
      await line.waitFor();
      await expect.poll(() => line.textContent(), { timeout: 60_000 }).toMatch(/^Message to delta\/\S+: typed into the pane$/);
      await page.screenshot({ path: artifactPath('web/crew-walky-member-sheet-replied.png') });
    }
    // delta's log found the pane that sent it, and typed the reply there.
    const atT = await api.waitForRequest((q) => q.kind === 'main' && /\[walky-talky wt_[a-z0-9]{12}\] from operator/.test(q.prompt) && q.prompt.includes('Yes, take the parser.'), 90_000);
    const replyId = /\[walky-talky (wt_[a-z0-9]{12})\] from operator/.exec(atT.prompt)![1]!;
    await expect.poll(async () => (await status(sD, replyId)).m?.state, { timeout: 60_000 }).toBe('delivered');
    expect((await status(sD, replyId)).m).toMatchObject({ replyTo: asked, to: { paneId: id, token: T.token }, verified: 'origin', from: { kind: 'operator', member: 'bluefin' } });
    await expect.poll(async () => (await status(sL, replyId)).m?.state, { timeout: 60_000 }).toBe('delivered');
  }, 300_000);
});
