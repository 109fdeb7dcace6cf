import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { artifactPath, bashPermission, crewBridge, crewCli, freePort, plainReply, startClaude, startMessagesApi, startPushService } from '@collie/testkit';
import { DurableAgent, serve } from '@collie/durable-sdk';
import { askLine, PushPayload, SendReceipt } from '@collie/protocol';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { qrCode } from '../../bridge/src/commands/qr';
import { fakeClaude, showTerminal, untilPane } from './e2e-setup';
import { crewWork, formCrew } from './crew-rig';
import { openPhone, shotBoth } from './phone-rig';

/** The CLI's terminal QR code (two rows per line, drawn light-on-dark) as rows of 1 (dark) and 0. */
async function cliQr(token: string): Promise<string[]> {
  const lines = (await qrCode(token)).split('\n').filter((l) => l.length > 0);
  // The first line is the top border; each line after it holds two rows, framed by one border column.
  const body = lines.slice(1).filter((l) => !/^▀+$/.test(l));
  const n = [...body[0]!].length - 2;
  const rows: string[] = [];
  for (const line of body) {
    const cells = [...line].slice(1, n + 1);
    // █ light/light, ▀ light/dark, ▄ dark/light, space dark/dark.
    rows.push(cells.map((c) => (c === ' ' || c === '▄' ? '1' : '0')).join(''));
    rows.push(cells.map((c) => (c === ' ' || c === '▀' ? '1' : '0')).join(''));
  }
  return rows.slice(0, n);
}

/** The QR code as the phone drew it: the dark modules of its SVG path, less the quiet zone. */
async function phoneQr(page: Page): Promise<string[]> {
  const { d, size } = await page.locator('svg.crew-qr').evaluate((svg) => ({ d: svg.querySelector('path')?.getAttribute('d') ?? '', size: Number(svg.getAttribute('viewBox')?.split(' ')[2]) }));
  const n = size - 8;
  const grid = Array.from({ length: n }, () => Array<string>(n).fill('0'));
  for (const m of d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) grid[Number(m[2]) - 4]![Number(m[1]) - 4] = '1';
  return grid.map((r) => r.join(''));
}

const shot = shotBoth;

describe("the lead's phone in a crew at 390×844", () => {
  it("the Crew page (state, invite QR, remove, Message all agents with Send to), a member's durable agent, a member pane's Chat, mirror and permission card (answered from the lead, pushed by the lead)", async () => {
    await using crew = await crewWork('collie-crew-phone-', ['lead', 'alpha', 'beta', 'gamma']);
    const { work, dist, tmux: [tmuxL, tmuxA, tmuxB, tmuxC], states: [sL, sA, sB, sC] } = crew;
    await using api = await startMessagesApi({ fallback: plainReply('Fine.') });
    await tmuxL.newSession('desk', { cmd: [fakeClaude, 'fresh-idle'] });
    await tmuxB.newSession('build', { cmd: [fakeClaude, 'permission-edit'] });
    await tmuxC.newSession('away', { cmd: [fakeClaude, 'fresh-idle'] });
    // alpha runs a real Claude Code with a conversation in its transcript: its pane has a Chat.
    await using claude = await startClaude(tmuxA, api, { session: 'api' });
    api.script(plainReply('The parser reads **two** files.'));
    await claude.submit('read the parser');
    await claude.waitForScreen((s) => s.includes('two') && s.includes('files'), 60_000);
    // beta serves a real durable agent.
    const heard: string[] = [];
    const desk = new DurableAgent({ runtime: 'desk', onMessage: (c, text) => void (heard.push(text), c.reply(`Noted: ${text}`)) });
    const served = await serve(desk, { socket: join(work.path, 'desk.sock') });
    const configB = join(work.path, 'beta-config');
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(configB, { recursive: true, mode: 0o700 });
    await writeFile(join(configB, 'sources.json'), JSON.stringify({ agents: [{ name: 'desk', socket: served.address }] }), { mode: 0o600 });

    const sD = join(work.path, 'delta');
    // The lead pushes to a stand-in push service (its CA trusted); nobody counts as looking, so a wait pushes.
    await using pushes = await startPushService();
    await using lead = await crewBridge(tmuxL.tmpDir, sL, 'bluefin', { webDir: dist, push: { ca: pushes.ca, loopbackEndpoints: true, delayMs: 500, awayMs: 1, backoff: [50, 100, 200] } });
    await using alpha = await crewBridge(tmuxA.tmpDir, sA, 'minibuch', { webDir: dist });
    await using beta = await crewBridge(tmuxB.tmpDir, sB, 'workshop', { webDir: dist, configDir: configB, durableBackoff: { first: 50, max: 400, mismatch: 400 } });
    const gamma = await crewBridge(tmuxC.tmpDir, sC, 'attic', { webDir: dist });
    await formCrew(sL, lead, 'bluefin', [['alpha', sA, alpha], ['beta', sB, beta], ['gamma', sC, gamma]]);
    const paneA = await untilPane(lead.hub, 'alpha claude on the lead', (p) => p.member?.name === 'alpha' && p.harness === 'claude', 30_000);
    const paneB = await untilPane(lead.hub, 'beta blocked on the lead', (p) => p.member?.name === 'beta' && p.state === 'blocked', 30_000);
    await untilPane(lead.hub, 'gamma on the lead', (p) => p.member?.name === 'gamma', 30_000);
    // gamma goes away: unreachable, greyed, its last-seen time kept.
    await gamma.stop();
    await untilPane(lead.hub, 'gamma unreachable', (p) => p.member?.name === 'gamma' && p.member.reachable === false, 15_000);

    await using phone = await openPhone(lead, lead.device, { timeout: 30_000 });
    const { page, problems: errors } = phone;

    // The Crew page, from the dashboard's foot.
    await page.goto('/');
    await page.locator('.conn-live').waitFor();
    await page.getByRole('link', { name: 'Crew', exact: true }).click();
    const machine = (name: string) => page.locator(`.crew-machine[data-machine="${name}"]`);
    await machine('gamma').locator('.crew-state', { hasText: 'Unreachable' }).waitFor();
    expect(await page.locator('.crew-machine .crew-name').allTextContents()).toEqual(['bluefin', 'alpha', 'beta', 'gamma']);
    expect(await machine('bluefin').textContent()).toContain('LeadThis machineReachable');
    expect(await machine('alpha').locator('.crew-state').textContent()).toBe('Reachable');
    expect(await machine('gamma').locator('.crew-state').textContent()).toMatch(/^Unreachable, last seen (just now|\d+ min ago)$/);
    expect(await machine('alpha').locator('.crew-meta').textContent()).toMatch(/^Collie test · 127\.0\.0\.1:\d+$/);
    expect(await page.locator('.crew-summary').textContent()).toMatch(/^collie-[a-z0-9]{6} · this machine leads · 3 of 4 machines reachable$/);
    for (const b of await page.locator('.crew-page button').all()) expect((await b.boundingBox())!.height, await b.textContent() ?? '').toBeGreaterThanOrEqual(44);
    await shot(page, 'crew-page');

    // Invite: a single-use token shown once, its QR code the same as the CLI draws.
    await page.getByRole('button', { name: 'Invite a machine' }).click();
    const token = ((await page.locator('.crew-token').textContent()) ?? '').split(' ')[3]!;
    expect(token).toMatch(/^cj1_/);
    expect(await page.locator('.crew-invite-box .crew-note').first().textContent()).toMatch(/^Valid (9|10) min more, once\. It is shown only now\.$/);
    expect(await phoneQr(page)).toEqual(await cliQr(token));
    await page.emulateMedia({ colorScheme: 'light' });
    await page.screenshot({ path: artifactPath('web/crew-invite.png'), fullPage: true });
    // The token is real and works once: delta joins with it; a second use is refused.
    const joined = await crewCli(sD, ['join', token, '--name', 'delta', '--listen', `127.0.0.1:${await freePort()}`]);
    expect(joined.code, joined.stderr).toBe(0);
    expect((await crewCli(join(work.path, 'epsilon'), ['join', token, '--listen', `127.0.0.1:${await freePort()}`])).code).toBe(4);
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.locator('.crew-token').count()).toBe(0);
    await machine('delta').waitFor();
    expect(await machine('delta').locator('.crew-state').textContent()).toBe('Unreachable, never connected yet');

    // Remove, with its confirmation; Keep changes nothing.
    await machine('delta').getByRole('button', { name: 'Remove' }).click();
    expect(await machine('delta').locator('.crew-ask').textContent()).toBe('Remove delta from the crew? Its key is refused from now on; it can join again only with a new invite.');
    await page.screenshot({ path: artifactPath('web/crew-remove-confirm.png'), fullPage: true });
    await machine('delta').getByRole('button', { name: 'Keep' }).click();
    await machine('delta').getByRole('button', { name: 'Remove' }).click();
    await machine('delta').getByRole('button', { name: 'Remove' }).click();
    await page.waitForFunction(() => !document.querySelector('.crew-machine[data-machine="delta"]'));
    const list = await crewCli(sL, ['list', '--json']);
    expect((list.json as { members: { name: string }[] }).members.map((m) => m.name)).toEqual(['bluefin', 'alpha', 'beta', 'gamma']);

    // Message all agents: "Send to" names every machine; the unreachable one cannot be picked.
    await page.getByRole('button', { name: 'Message all agents' }).click();
    const sheet = page.getByRole('dialog', { name: 'Message all agents' });
    const sendTo = sheet.getByLabel('Send to');
    await sheet.locator('option[value="gamma"]').waitFor({ state: 'attached' });
    expect(await sendTo.locator('option').allTextContents()).toEqual(['All machines', 'bluefin', 'alpha', 'beta', 'gamma (unreachable)']);
    expect(await sheet.locator('option[value="gamma"]').isDisabled()).toBe(true);
    await sheet.getByLabel('Message to every agent').fill('Stand by for the release.');
    await sheet.getByRole('button', { name: 'Send message' }).click();
    // Every reachable machine's agents: bluefin's, alpha's and beta's; gamma's left out.
    expect(await sheet.locator('.wk-confirm').textContent()).toBe('Message 3 agents on 3 machines?');
    await page.screenshot({ path: artifactPath('web/crew-message-all-confirm.png') });
    await sheet.getByRole('button', { name: 'Back' }).click();
    await sendTo.selectOption('alpha');
    await sheet.getByRole('button', { name: 'Send message' }).click();
    expect(await sheet.locator('.wk-confirm').textContent()).toBe('Message 1 agent on 1 machine?');
    await sheet.getByRole('button', { name: 'Back' }).click();
    // This machine's own agents, through the walky broadcast.
    await sendTo.selectOption('local');
    await sheet.getByRole('button', { name: 'Send message' }).click();
    expect(await sheet.locator('.wk-confirm').textContent()).toBe('Message 1 agent on 1 machine?');
    await sheet.getByRole('button', { name: 'Send', exact: true }).click();
    await sheet.getByRole('heading', { name: 'Agents reached' }).waitFor();
    expect(await sheet.locator('.wk-receipts li').count()).toBe(2);
    expect(await sheet.locator('.wk-every').textContent()).toBe('every machine: 1 message');
    await shot(page, 'crew-message-all-sent');
    await sheet.getByRole('button', { name: 'Close' }).click();

    // beta's durable agent in the one Durable agents section, beta's name on line 2.
    await page.goto('/');
    const row = page.locator('.durable-row', { hasText: 'desk' });
    await row.waitFor();
    expect(await row.locator('.durable-line1').textContent()).toBe('desk Experimental');
    expect(await row.locator('.durable-line2').textContent()).toBe('desk, beta');
    await shot(page, 'crew-dashboard-durable');
    const conv = desk.open({ title: 'Release notes' });
    conv.reply('Ready when you are.');
    await row.click();
    await page.locator('.durable-conv', { hasText: 'Release notes' }).click();
    await page.locator('.chat-reply', { hasText: 'Ready when you are.' }).waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('ship it');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.locator('.chat-reply', { hasText: 'Noted: ship it' }).waitFor();
    expect(heard).toEqual(['ship it']);
    await shot(page, 'crew-member-durable');

    // alpha's pane from the lead's phone: its Chat, then its screen mirror, both from alpha.
    await page.goto(`/#/pane/${encodeURIComponent(paneA.id)}`);
    const chat = page.locator('.pane-chat-scroll');
    await chat.locator('.chat-user', { hasText: 'read the parser' }).waitFor();
    await chat.locator('.chat-markdown', { hasText: 'The parser reads two files.' }).waitFor();
    await shot(page, 'crew-member-chat');
    await showTerminal(page);
    await page.locator('.term', { hasText: 'read the parser' }).waitFor();
    await shot(page, 'crew-member-mirror');

    // alpha's real Claude Code asks a Bash permission: the lead's phone shows the ask on alpha's row
    // and the card on alpha's pane page, the lead pushes it, and a tap answers it on alpha.
    const subscribed = await fetch(`${lead.url}/api/push/subscribe`, { method: 'POST', headers: { 'content-type': 'application/json', ...lead.device.headers }, body: JSON.stringify({ subscription: pushes.subscribe() }) });
    expect(subscribed.status).toBe(200);
    api.script(bashPermission('touch asked-on-alpha', { description: 'Make the marker file' }));
    await claude.submit('make the marker file');
    const asking = await untilPane(lead.hub, 'alpha asks on the lead', (p) => p.id === paneA.id && p.state === 'blocked' && p.card?.kind === 'permission' && p.card.answerable, 60_000);
    await page.goto('/');
    const rowA = page.locator('.row', { has: page.locator('.row-meta', { hasText: /· alpha ·/ }) });
    await expect.poll(() => rowA.locator('.row-ask').textContent(), { timeout: 20_000 }).toBe(askLine(asking.card!));
    expect(await rowA.locator('.row-ask').textContent()).toContain('touch asked-on-alpha');
    await shot(page, 'crew-member-ask-row');
    const isAsk = (x: unknown) => {
      const q = PushPayload.safeParse(x);
      return q.success && q.data.type === 'push.show' && q.data.url === `#/pane/${encodeURIComponent(paneA.id)}`;
    };
    const pushed = PushPayload.parse((await pushes.next((r) => isAsk(r.json), 30_000)).json);
    if (pushed.type !== 'push.show') throw new Error('not a show');
    expect(pushed.kind).toBe('blocked');
    expect(pushed.title).toMatch(/^Permission needed in /);
    expect(pushed.body).toContain('touch asked-on-alpha');
    await page.goto(`/#/pane/${encodeURIComponent(paneA.id)}`);
    const card = page.locator('.card');
    await card.locator('.card-kind').waitFor();
    expect(await card.textContent()).toContain('touch asked-on-alpha');
    await shot(page, 'crew-member-card');
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifactPath('web/crew-member-card-view.png') });
    // The narrowest yes: this one command, once.
    const yes = card.locator('button.option').first();
    expect(await yes.textContent()).toBe('1. Yes');
    expect((await yes.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await yes.click();
    // alpha's model gets the tool result: the command ran on alpha.
    const result = await api.waitForRequest((q) => q.kind === 'main' && q.toolResults.length > 0, 60_000);
    expect(result.toolResults[0]!.isError).toBe(false);
    expect(existsSync(join(claude.cwd, 'asked-on-alpha'))).toBe(true);
    await claude.waitForScreen((sc) => sc.includes('The command finished'), 60_000);
    await untilPane(lead.hub, 'alpha answered', (p) => p.id === paneA.id && p.state !== 'blocked', 30_000);
    // Answered: the lead withdraws the push, and the answer went in once.
    await pushes.next((r) => PushPayload.safeParse(r.json).data?.type === 'push.withdraw' && (r.json as { tag?: string }).tag === pushed.tag, 30_000);
    expect(api.requests.filter((q) => q.kind === 'main' && q.toolResults.length > 0)).toHaveLength(1);

    // A held send to beta's blocked pane, cancelled from the lead: the member's own receipt.
    const post = (path: string, body: unknown) => fetch(`${lead.url}/api/panes/${encodeURIComponent(paneB.id)}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...lead.device.headers }, body: JSON.stringify(body) });
    const held = SendReceipt.parse(((await (await post('/send', { text: 'after the dialog', request_id: 'crew-held-1' })).json()) as { receipt: unknown }).receipt);
    expect(held).toMatchObject({ paneId: paneB.id, state: 'held' });
    const cancelled = await post('/sends/crew-held-1/cancel', {});
    expect(cancelled.status).toBe(200);
    expect(SendReceipt.parse(((await cancelled.json()) as { receipt: unknown }).receipt)).toMatchObject({ paneId: paneB.id, requestId: 'crew-held-1', state: 'not_sent' });
    // Cancelling it again is the same answer; an unknown send is 404, as on one machine.
    expect((await post('/sends/crew-held-1/cancel', {})).status).toBe(200);
    expect((await post('/sends/nope/cancel', {})).status).toBe(404);
    // A box action on a send that left nothing: the member says the box changed, with its own receipt.
    const box = SendReceipt.parse(((await (await post('/box', { action: 'clear', send_id: 'crew-held-1', request_id: 'crew-box-1' })).json()) as { receipt: unknown }).receipt);
    expect(box).toMatchObject({ paneId: paneB.id, kind: 'keys', requestId: 'crew-box-1' });
    await expect.poll(() => lead.hub.snapshot().sends.find((r) => r.requestId === 'crew-box-1')?.outcome, { timeout: 15_000 }).toBe('not sent: the box no longer holds that text');
    // Too late to cancel a send that has ended: 409, the member's word.
    expect((await post('/sends/crew-box-1/cancel', {})).status).toBe(409);
    // A member pane's files are on the member: the lead never reads its own disk at that pane's folder.
    for (const route of ['files', 'changes']) expect((await fetch(`${lead.url}/api/panes/${encodeURIComponent(paneA.id)}/${route}`, { headers: lead.device.headers })).status, route).toBe(404);
    expect(errors).toEqual([]);
    await served.close();
  }, 420_000);
});
