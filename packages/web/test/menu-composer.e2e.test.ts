import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startBridge } from '@collie/bridge';
import { artifactPath, startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { untilPane, webRoot } from './e2e-setup';
import { openPhone, webWork } from './phone-rig';

/** Real Codex 0.171 screens taken by its capture driver: the idle composer and the `/model` picker over it. */
const captures = join(webRoot, '..', 'bridge', 'src', 'harness', 'codex', 'captures');
const fakeCodex = join(webRoot, '..', 'testkit', 'fake-agent', 'codex');

/**
 * A menu the person opened in the terminal (Codex's `/model` picker): the pane stays idle with
 * the dialog `menu`, and the phone says "A menu is open in the terminal" where its composer was,
 * with no box that would type into the menu; the keys pad stays in reach. Once the menu closes
 * the composer is back with what was written in it.
 */
describe('a menu open in the terminal', () => {
  it('takes the composer\'s place on the phone until it closes', async () => {
    await using work = await webWork('collie-menu-composer-');
    const { dist } = work;
    const fifo = join(work.path, 'screen.fifo');
    await promisify(execFile)('mkfifo', [fifo]);
    await using tmux = await startTmux();
    const paneId = await tmux.newSession('menu', { cmd: [process.execPath, fakeCodex, 'fresh-idle'], env: { COLLIE_FAKE_FIFO: fifo, COLLIE_FAKE_SCREENS: captures }, width: 120, height: 40 });
    await using state = await tempDir('collie-state-');
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path, { webDir: dist }));
    const pane = await untilPane(bridge.hub, 'the idle Codex pane', (p) => p.tmuxId === paneId && p.harness === 'codex' && p.dialog === null && p.state === 'idle', 30_000);

    await using phone = await openPhone(bridge, state.path, { timeout: 20_000 });
    const { page } = phone;
    await page.goto(`/#/pane/${encodeURIComponent(pane.id)}`);
    const box = page.getByLabel('Text to send to the pane');
    await box.fill('rename the parser module');
    const note = page.getByText('A menu is open in the terminal');

    await writeFile(fifo, 'model-picker\n');
    const menu = await untilPane(bridge.hub, 'the menu read on the pane', (p) => p.id === pane.id && p.dialog === 'menu', 30_000);
    expect({ state: menu.state, draft: menu.draft }).toEqual({ state: 'idle', draft: null });
    await note.waitFor();
    expect(await box.count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Send', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Keys' }).isEnabled()).toBe(true);
    await page.screenshot({ path: artifactPath('web/menu-composer.png') });

    await writeFile(fifo, 'fresh-idle\n');
    await untilPane(bridge.hub, 'the menu closed', (p) => p.id === pane.id && p.dialog === null, 30_000);
    await note.waitFor({ state: 'detached' });
    expect(await box.inputValue()).toBe('rename the parser module');
  }, 120_000);
});
