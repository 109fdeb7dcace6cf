import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { QuickReplies } from '@collie/protocol';
import { plainReply } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { axeProblems } from './e2e-setup';
import { claudePhone, shot } from './phone-rig';

/**
 * Issue 16, quick replies saved from the phone: the chips' Edit… opens Settings, where one is
 * added and one removed (`<config>/quick-replies.json`); back on the pane the new chip sends its
 * text through the send protocol (real tmux, a real Claude Code pane, Chromium at 390×844).
 */
describe('editing quick replies from the phone', () => {
  it('adds and removes a quick reply in Settings, then sends the new one with a tap', async () => {
    // Quick replies are an agent's: a real Claude Code pane against its scripted API (a shell has none).
    await using rig = await claudePhone('collie-quick-e2e-', {
      api: { fallback: plainReply('Done.') },
      claude: async (work) => ({ cwd: work.path }),
      bridge: ({ work }) => ({ configDir: join(work.path, 'config') }),
      ready: { what: 'the Claude pane, idle', check: (p, id) => p.id === id && p.harness === 'claude' && p.state === 'idle' },
      readyMs: 30_000,
      phone: { timeout: 20_000, console: true },
    });
    const { api, id, page } = rig;
    const { problems } = rig.phone;
    const config = join(rig.work.path, 'config');

    await rig.phone.openPane(id);
    const chips = page.getByRole('group', { name: 'Quick replies' });
    await chips.getByRole('button', { name: 'Commit' }).waitFor();
    await chips.getByRole('link', { name: 'Edit quick replies' }).click();

    const editor = page.getByRole('region', { name: 'Quick replies' });
    await editor.locator('.new-choice-name', { hasText: 'Run the tests' }).waitFor();
    await editor.getByRole('button', { name: 'Remove Commit' }).click();
    await editor.getByRole('status').filter({ hasText: 'Removed “Commit”.' }).waitFor();
    await editor.getByLabel('Label').fill('Ship it');
    await editor.getByLabel('Text it sends').fill('Looks good: commit and push.');
    await editor.getByRole('button', { name: 'Add' }).click();
    await editor.getByRole('status').filter({ hasText: 'Saved “Ship it”.' }).waitFor();
    expect(QuickReplies.parse(JSON.parse(await readFile(join(config, 'quick-replies.json'), 'utf8'))).replies.map((r) => r.label)).toEqual(['Continue', 'Run the tests', 'Ship it']);
    // Refused with words: a label that is there already.
    await editor.getByLabel('Label').fill('Ship it');
    await editor.getByLabel('Text it sends').fill('again');
    await editor.getByRole('button', { name: 'Add' }).click();
    await editor.getByRole('alert').filter({ hasText: 'There is a quick reply labelled “Ship it” already.' }).waitFor();
    await editor.getByLabel('Label').fill('');
    await editor.getByLabel('Text it sends').fill('');
    for (const b of await editor.locator('button, input, textarea').all()) expect((await b.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
    await editor.scrollIntoViewIfNeeded();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeProblems(page), scheme).toEqual([]);
      await shot(page, `quick-replies-edit-${scheme}`);
    }

    // Back on the pane: the new chip, one tap, through the send protocol.
    await page.goto(`/#/pane/${encodeURIComponent(id)}`);
    await chips.getByRole('button', { name: 'Ship it' }).waitFor();
    expect(await chips.getByRole('button', { name: 'Commit' }).count()).toBe(0);
    expect((await chips.getByRole('link', { name: 'Edit quick replies' }).boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
    await chips.getByRole('button', { name: 'Ship it' }).click();
    await expect.poll(() => page.locator('.composer-status .status-words').textContent(), { timeout: 60_000 }).toBe('typed into the pane');
    // The agent got the quick reply's text as its prompt.
    await api.waitForRequest((q) => q.kind === 'main' && q.prompt === 'Looks good: commit and push.', 60_000);
    await shot(page, 'quick-replies-chips');
    expect(problems).toEqual([]);
  }, 180_000);
});
