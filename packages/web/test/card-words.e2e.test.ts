import { askUserQuestion, bashPermission } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { untilPane } from './e2e-setup';
import { claudePhone, shot } from './phone-rig';

/**
 * Options that take words, answered from the phone's card on the real Claude Code TUI: the
 * field under a permission's `No`, and AskUserQuestion's `Type something.` row.
 */
describe('answering a card with words from the phone', () => {
  it('sends "No, and tell Claude what to do differently" and "Type something." with their words', async () => {
    await using rig = await claudePhone('collie-words-e2e-', { claude: { width: 100, height: 40 }, readyMs: 30_000, phone: { timeout: 15_000, scheme: 'dark' } });
    const { api, claude, bridge, id, page } = rig;
    const idle = () => rig.idle(30_000);
    await rig.phone.openPane(id);
    const card = page.locator('.card');
    const answered = page.locator('.ask .answered');

    api.script(bashPermission('touch refused-from-the-phone'));
    await claude.submit('run the command');
    await untilPane(bridge.hub, 'the permission card', (p) => p.id === id && p.card?.kind === 'permission' && p.card.answerable, 30_000);
    const no = card.getByLabel('No, and tell Claude what to do differently');
    await no.fill('use echo instead');
    await shot(page, 'card-words-permission');
    await card.getByRole('button', { name: 'Answer 4 with these words' }).click();
    // Where the card was, the page says what was chosen once the answer went in.
    await answered.waitFor({ timeout: 20_000 });
    const refused = await api.waitForRequest((q) => q.kind === 'main' && q.toolResults.some((t) => t.isError), 20_000);
    expect(refused.toolResults[0]?.text).toMatch(/the user said:\nuse echo instead$/);
    await idle();

    api.script(askUserQuestion([{ question: 'Which color?', header: 'Color', options: [{ label: 'Red', description: 'warm' }, { label: 'Blue', description: 'cool' }] }]));
    await claude.submit('ask me a color');
    await card.locator('.card-question', { hasText: 'Which color?' }).waitFor({ timeout: 30_000 });
    await card.getByLabel('Type something.').fill('Teal, like the sea');
    await shot(page, 'card-words-question');
    await card.getByRole('button', { name: 'Answer 3 with these words' }).click();
    const colour = await api.waitForRequest((q) => q.kind === 'main' && q.toolResults.some((t) => /Which color/.test(t.text)), 20_000);
    expect(colour.toolResults[0]?.text).toContain('"Which color?"="Teal, like the sea"');
  }, 180_000);
});
