import { join } from 'node:path';
import { artifactPath, crewBridge, crewCli, freePort, launchChromium, phoneContext, startTmux, tempDir } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { joinMembers } from '../../bridge/test/crew-join';
import { SessionStores } from '../../bridge/test/session-stores';
import { buildWeb } from './e2e-setup';

/**
 * The Sessions page on a crew's lead at 390×844: the lead's and the member's sessions (written in
 * their agents' real formats on each machine) in one list, each row naming its machine; the
 * Machine filter shows one machine's; a member's session opens, read on the member; the member
 * gone, the page says its sessions are not shown and still lists the lead's.
 */
describe('the Sessions page of a crew’s lead at 390×844', () => {
  it('lists both machines’ sessions, filters by machine, opens a member’s, and says when a member is away', async () => {
    await using work = await tempDir('collie-sessions-crew-web-');
    const dist = join(work.path, 'dist');
    await buildWeb(dist);
    await using tmuxL = await startTmux();
    await using tmuxM = await startTmux();
    await tmuxL.newSession('main', { cmd: 'cat' });
    await tmuxM.newSession('main', { cmd: 'cat' });
    const [sL, sM] = ['lead', 'alpha'].map((n) => join(work.path, n)) as [string, string];
    const storesL = new SessionStores(join(work.path, 'home-lead'));
    const storesM = new SessionStores(join(work.path, 'home-alpha'));
    const t0 = Date.now() - 3_600_000;
    storesL.write({ agent: 'claude', folder: '/home/u/code/site', first: 'Fix the lead login form', at: t0 });
    const piId = storesM.write({ agent: 'pi', folder: '/home/u/code/api', first: 'Profile the member import job', at: t0 + 60_000 });
    storesM.write({ agent: 'codex', folder: '/home/u/code/api', first: 'Add member retries', at: t0 + 120_000 });
    storesL.close();
    storesM.close();
    await using lead = await crewBridge(tmuxL.tmpDir, sL, 'bluefin', { webDir: dist, sessionRoots: storesL.roots });
    const member = await crewBridge(tmuxM.tmpDir, sM, 'alpha', { webDir: dist, sessionRoots: storesM.roots });
    let memberUp = true;
    try {
      expect((await crewCli(sL, ['create', '--name', 'bluefin', '--listen', `127.0.0.1:${await freePort()}`])).code).toBe(0);
      await lead.crew.reload();
      await joinMembers(sL, [['alpha', sM, member, `127.0.0.1:${await freePort()}`, null]]);
      await new Promise<void>((resolve) => {
        const check = () => lead.crew.connected().includes('alpha') && (off(), resolve());
        const off = lead.hub.subscribe(() => void check());
        check();
      });

      await using browser = await launchChromium();
      await using context = await phoneContext(browser, { baseURL: lead.url });
      await context.addCookies([lead.device.cookie(lead.url)]);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto('/#/sessions');
      const rows = page.locator('.session-row');
      await rows.nth(2).waitFor();
      const shown = await rows.allInnerTexts();
      expect(shown[0]).toMatch(/Add member retries[\s\S]*Codex · api · on alpha/);
      expect(shown[1]).toMatch(/Profile the member import job[\s\S]*pi · api · on alpha/);
      expect(shown[2]).toMatch(/Fix the lead login form[\s\S]*Claude Code · site · on bluefin/);
      await page.screenshot({ path: artifactPath('web/sessions-crew-lead.png') });

      // One machine's sessions.
      await page.getByLabel('Machine').selectOption('bluefin');
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().innerText()).toMatch(/Fix the lead login form/);
      await page.getByLabel('Machine').selectOption('');
      await rows.nth(2).waitFor();

      // A member's session, read on the member.
      await rows.nth(1).locator('a.new-choice-main').click();
      await expect.poll(() => page.url()).toContain(`#/sessions/pi/${piId}/on/alpha`);
      await page.getByText('Profile the member import job').last().waitFor();
      await page.getByRole('button', { name: 'Resume in a new pane' }).waitFor();
      await page.screenshot({ path: artifactPath('web/sessions-crew-member-session.png') });

      // The member gone: its sessions are said not to be shown; the lead's still are.
      await member.stop();
      memberUp = false;
      await page.goto('/#/sessions');
      await page.getByText('alpha’s sessions are not shown.').waitFor();
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().innerText()).toMatch(/Fix the lead login form/);
      await page.screenshot({ path: artifactPath('web/sessions-crew-away.png') });
    } finally {
      if (memberUp) await member.stop();
    }
  });
});
