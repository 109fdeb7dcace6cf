import { artifactPath, crewBridge, plainReply, startClaude, startMessagesApi } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { fakePane } from '../../bridge/test/walky/fake-pane';
import { walkyEnv } from '../../bridge/test/walky/kit';
import { axeBoth, untilPane } from './e2e-setup';
import { openPhone } from './phone-rig';
import { crewWork, formCrew } from './crew-rig';

describe("a message from another machine of the crew, on the receiving member's phone at 390×844", () => {
  it('the card says "signed by" the sending machine, with the body from this machine\'s log', async () => {
    await using crew = await crewWork('collie-web-crew-walky-', ['lead', 'alpha', 'beta']);
    const { work, dist, tmux: [tmuxL, tmuxA, tmuxB], states: [sL, sA, sB] } = crew;
    await using api = await startMessagesApi({ fallback: plainReply('Noted.') });
    await tmuxL.newSession('desk', { cmd: 'cat' });
    const sender = await fakePane(tmuxA, work.path, 'sender', 'fresh-idle', walkyEnv(sA));
    await using claude = await startClaude(tmuxB, api, { session: 'target' });
    await using lead = await crewBridge(tmuxL.tmpDir, sL, 'bluefin');
    await using alpha = await crewBridge(tmuxA.tmpDir, sA, 'minibuch');
    await using beta = await crewBridge(tmuxB.tmpDir, sB, 'workshop', { webDir: dist });
    await formCrew(sL, lead, 'bluefin', [['alpha', sA, alpha], ['beta', sB, beta]]);
    const id = `${tmuxB.name}:${claude.paneId}`;
    const T = await untilPane(beta.hub, 'the idle Claude pane', (p) => p.id === id && p.harness === 'claude' && (p.state === 'idle' || p.state === 'done') && p.draft === null, 60_000);
    await untilPane(lead.hub, 'beta on the lead', (p) => p.id === `@beta/${id}` && p.member?.reachable === true, 60_000);
    await untilPane(alpha.hub, 'the sender', (p) => p.tmuxId === sender.paneId && p.harness === 'claude', 60_000);

    const sent = await sender.collie(['walky', 'send', T.address.replace(/^local\//, 'beta/'), 'The build on minibuch is green.']);
    expect(sent.code, sent.out + sent.err).toBe(0);
    const mid = sent.out.split('\n')[0]!;
    await api.waitForRequest((q) => q.kind === 'main' && q.prompt.includes(`[walky-talky ${mid}]`), 60_000);

    await using phone = await openPhone(beta, beta.device, { timeout: 30_000 });
    const { page } = phone;
    await page.goto(`/#/pane/${encodeURIComponent(id)}`);
    const card = page.locator(`.pane-chat .wk-card[data-message="${mid}"]`);
    await card.waitFor({ timeout: 60_000 });
    expect(await card.locator('.wk-card-title').textContent()).toMatch(/^Message from \S/);
    expect(await card.locator('.wk-kind').textContent()).toBe('agent');
    expect(await card.locator('.wk-known').textContent()).toBe('signed by alpha');
    expect(await card.locator('.wk-card-body').textContent()).toBe('The build on minibuch is green.');
    // Text nodes only: the words are not markup.
    expect(await card.locator('.wk-known').evaluate((el) => [...el.childNodes].every((n) => n.nodeType === Node.TEXT_NODE))).toBe(true);
    await card.scrollIntoViewIfNeeded();
    await axeBoth(page, '.pane-chat');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: artifactPath(`web/crew-walky-card-${scheme}.png`) });
    }
  }, 180_000);
});
