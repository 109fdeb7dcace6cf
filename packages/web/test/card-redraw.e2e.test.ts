import { execFile } from 'node:child_process';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startBridge } from '@collie/bridge';
import { artifactPath, startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { fakeClaude, untilPane, webRoot } from './e2e-setup';
import { openPhone, webWork } from './phone-rig';

const fixtures = process.env.COLLIE_FAKE_SCREENS ?? join(webRoot, '..', 'testkit', 'corpus', 'panes');

/**
 * An agent that redraws its dialog while the person types into one of its options: the card is
 * read again with another signature and remounts, also after a moment with no dialog, and what
 * was typed stays in the field (in CI, Claude Code redrawing its permission dialog emptied the
 * field and disabled its Send).
 */
describe('a card read again while the person types', () => {
  it('keeps the words typed into an option when the card is read again', async () => {
    await using work = await webWork('collie-card-redraw-');
    const { dist } = work;
    // Two screens of one ask: the second is the same menu with one option's description redrawn.
    const screens = join(work.path, 'screens');
    await promisify(execFile)('mkdir', ['-p', screens]);
    await copyFile(join(fixtures, 'claude--select-menu.txt'), join(screens, 'claude--select-menu.txt'));
    const menu = await readFile(join(screens, 'claude--select-menu.txt'), 'utf8');
    expect(menu).toContain('A warm, high-energy theme');
    await writeFile(join(screens, 'claude--select-menu-redrawn.txt'), menu.replace('A warm, high-energy theme', 'A warm, bright theme'));
    const fifo = join(work.path, 'screen.fifo');
    await promisify(execFile)('mkfifo', [fifo]);
    await using tmux = await startTmux();
    const paneId = await tmux.newSession('ask', { cmd: [process.execPath, fakeClaude, 'select-menu'], env: { COLLIE_FAKE_FIFO: fifo, COLLIE_FAKE_SCREENS: screens }, width: 120, height: 40 });
    await using state = await tempDir('collie-state-');
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
    const first = await untilPane(bridge.hub, 'the question card', (p) => p.tmuxId === paneId && p.card?.answerable === true, 30_000);

    await using phone = await openPhone(bridge, state.path, { timeout: 20_000 });
    const { page } = phone;
    await page.goto(`/#/pane/${encodeURIComponent(first.id)}`);
    const card = page.locator('.card');
    const field = card.getByLabel('Type something.');
    await field.fill('Teal, like the sea');
    const send = card.getByRole('button', { name: 'Answer 4 with these words' });
    await expect.poll(() => send.isEnabled()).toBe(true);

    // A redraw that shows no dialog for a moment (the bridge read the pane mid-draw), then the
    // dialog again with another signature.
    await writeFile(fifo, 'mid-draw\n');
    await untilPane(bridge.hub, 'no card for a moment', (p) => p.id === first.id && p.card === null, 30_000);
    await writeFile(fifo, 'select-menu-redrawn\n');
    const again = await untilPane(bridge.hub, 'the card read again', (p) => p.id === first.id && p.card !== null && p.card.signature !== first.card?.signature, 30_000);
    expect(again.card?.options.map((o) => o.label)).toEqual(first.card?.options.map((o) => o.label));
    await card.getByText('A warm, bright theme').waitFor();
    expect(await field.inputValue()).toBe('Teal, like the sea');
    expect(await send.isEnabled()).toBe(true);
    await page.screenshot({ path: artifactPath('web/card-redraw-kept-words.png') });
  }, 120_000);
});
