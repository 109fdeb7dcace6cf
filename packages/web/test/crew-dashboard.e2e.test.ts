import { artifactPath, crewBridge } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeProblems, fakeClaude, untilPane } from './e2e-setup';
import { openPhone } from './phone-rig';
import { crewWork, formCrew } from './crew-rig';

/** Each row as a person reads it: label | line 2 | state. */
const rows = (page: Page) => page.locator('.row').evaluateAll((els) => els.map((el) => `${el.querySelector('.row-label')?.textContent} | ${el.querySelector('.row-meta')?.textContent} | ${el.querySelector('.pill')?.textContent}`));

describe('the lead dashboard of a crew at 390×844', () => {
  it('shows two members panes with the member on line 2, then one member unreachable, greyed with when it was last seen', async () => {
    await using crew = await crewWork('collie-crew-web-', ['lead', 'alpha', 'beta']);
    const { dist, tmux: [tmuxL, tmuxA, tmuxB], states: [sL, sA, sB] } = crew;
    await tmuxL.newSession('desk', { cmd: [fakeClaude, 'working'] });
    await tmuxA.newSession('api', { cmd: [fakeClaude, 'permission-edit'] });
    await tmuxB.newSession('build', { cmd: [fakeClaude, 'fresh-idle'] });
    await using lead = await crewBridge(tmuxL.tmpDir, sL, 'bluefin', { webDir: dist });
    await using alpha = await crewBridge(tmuxA.tmpDir, sA, 'minibuch', { webDir: dist });
    const beta = await crewBridge(tmuxB.tmpDir, sB, 'workshop', { webDir: dist });
    await formCrew(sL, lead, 'bluefin', [['alpha', sA, alpha], ['beta', sB, beta]]);
    await untilPane(lead.hub, 'alpha blocked on the lead', (p) => p.member?.name === 'alpha' && p.state === 'blocked');
    await untilPane(lead.hub, 'beta on the lead', (p) => p.member?.name === 'beta' && p.harness === 'claude');

    await using phone = await openPhone(lead, lead.device, { timeout: 15_000 });
    const { page } = phone;
    await page.goto('/');
    await page.locator('.conn-live').waitFor();
    await page.locator('.row').nth(2).waitFor();
    const shown = await rows(page);
    expect(shown).toHaveLength(3);
    expect(shown[0]).toMatch(/^.* \| Claude Code · alpha · 0:.* \| Blocked$/);
    expect(shown.some((r) => / \| Claude Code · beta · 0:/.test(r))).toBe(true);
    expect(shown.some((r) => / \| Claude Code · bluefin · 0:/.test(r))).toBe(true);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeProblems(page), scheme).toEqual([]);
      await page.screenshot({ path: artifactPath(`web/crew-dashboard-${scheme}.png`) });
    }

    // beta stops: its row stays, greyed, "Unreachable", with when it was last seen.
    await beta.stop();
    const away = page.locator('.row-unreachable');
    await away.waitFor();
    await expect(away.locator('.row-meta').textContent()).resolves.toMatch(/^Claude Code · beta · /);
    await expect(away.locator('.pill').textContent()).resolves.toBe('Unreachable');
    await expect(away.locator('.row-away').textContent()).resolves.toMatch(/^Unreachable, last seen (just now|\d+ min ago)$/);
    await expect(away.getAttribute('aria-label')).resolves.toContain('Unreachable, last seen');
    const box = await away.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(44);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeProblems(page), scheme).toEqual([]);
      await page.screenshot({ path: artifactPath(`web/crew-dashboard-unreachable-${scheme}.png`) });
    }
  }, 180_000);
});
