import { crewBridge } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { fakeClaude, untilPane } from './e2e-setup';
import { openPhone, shotBoth } from './phone-rig';
import { crewWork, formCrew } from './crew-rig';

const shot = shotBoth;

describe("a member's own phone at 390×844: Message all agents", () => {
  it('offers All machines and This machine only, counts its own agents and says the lead counts the others; All machines reaches the lead\'s agent too', async () => {
    await using crew = await crewWork('collie-crew-member-all-', ['lead', 'alpha']);
    const { dist, tmux: [tmuxL, tmuxA], states: [sL, sA] } = crew;
    await tmuxL.newSession('desk', { cmd: [fakeClaude, 'fresh-idle'] });
    await tmuxA.newSession('api', { cmd: [fakeClaude, 'fresh-idle'] });
    await tmuxA.newSession('sh', { cmd: 'cat' });
    await using lead = await crewBridge(tmuxL.tmpDir, sL, 'bluefin', { webDir: dist });
    await using alpha = await crewBridge(tmuxA.tmpDir, sA, 'minibuch', { webDir: dist });
    await formCrew(sL, lead, 'bluefin', [['alpha', sA, alpha]]);
    await untilPane(lead.hub, 'alpha claude on the lead', (p) => p.member?.name === 'alpha' && p.harness === 'claude', 30_000);
    await untilPane(alpha.hub, 'alpha claude', (p) => p.harness === 'claude', 30_000);

    await using phone = await openPhone(alpha, alpha.device, { timeout: 30_000 });
    const { page, problems: errors } = phone;
    await page.goto('/');
    await page.locator('.conn-live').waitFor();
    await page.getByRole('link', { name: 'Crew', exact: true }).click();
    await page.getByRole('button', { name: 'Message all agents' }).click();
    const sheet = page.getByRole('dialog', { name: 'Message all agents' });
    const sendTo = sheet.getByLabel('Send to');
    await sheet.locator('option[value="local"]', { hasText: 'This machine' }).waitFor({ state: 'attached' });
    // Only what works on a member: the lead's name would be refused here.
    expect(await sendTo.locator('option').allTextContents()).toEqual(['All machines', 'This machine (alpha)']);
    await sheet.getByLabel('Message to every agent').fill('Stand by for the release.');
    await sendTo.selectOption('local');
    await sheet.getByRole('button', { name: 'Send message' }).click();
    expect(await sheet.locator('.wk-confirm').textContent()).toBe('Message 1 agent on 1 machine?');
    expect(await sheet.locator('.wk-note').count()).toBe(0);
    await sheet.getByRole('button', { name: 'Back' }).click();
    await sendTo.selectOption('all');
    await sheet.getByRole('button', { name: 'Send message' }).click();
    expect(await sheet.locator('.wk-confirm').textContent()).toBe('Message 1 agent on this machine, and every agent on the other machines?');
    expect(await sheet.locator('.wk-note').textContent()).toBe("The lead, bluefin, counts the other machines' agents and passes the message on; each gets its own receipt.");
    for (const b of await sheet.locator('button').all()) expect((await b.boundingBox())!.height, (await b.textContent()) ?? '').toBeGreaterThanOrEqual(44);
    await shot(page, 'crew-member-message-all-confirm');
    await sheet.getByRole('button', { name: 'Send', exact: true }).click();
    await sheet.getByRole('heading', { name: 'Agents reached' }).waitFor();
    // alpha's own agent and the lead's, one receipt each.
    expect(await sheet.locator('.wk-every').textContent()).toBe('every machine: 2 messages');
    const receipts = await sheet.locator('.wk-receipts').first().locator('li:not(.wk-every)').allTextContents();
    expect(receipts, receipts.join(' | ')).toHaveLength(2);
    expect(receipts.some((r) => r.includes('collie-'))).toBe(true);
    await shot(page, 'crew-member-message-all-sent');
    expect(errors).toEqual([]);
  }, 240_000);
});
