import type { CaptureLabel } from '../../capture/driver';
import type { TmuxServer } from '../../tmux';
import type { AgentPane } from '../pane';
import { opencodeReady } from './screen';

type Shot = (name: string, label: CaptureLabel) => Promise<void>;
const WAIT = 120_000;

/**
 * The menus a user opens in OpenCode on its start screen, each kept as a `menu` over the idle
 * prompt and closed with one Esc: the slash-command popup, the `/models` dialog, and the
 * Ctrl+P command palette.
 */
export async function captureOpencodeMenus(tmux: TmuxServer, oc: AgentPane, shot: Shot): Promise<void> {
  const POPUP = /\/models?\b.*\n[\s\S]*\/\w+/u;
  await tmux.typeText(oc.paneId, '/');
  await oc.waitForScreen(POPUP, WAIT);
  await shot('slash-popup', { state: 'idle', dialog: 'menu', draft: false, note: 'the slash-command popup over the prompt: a menu, its "/" no draft' });
  await tmux.sendKeys(oc.paneId, 'Escape');
  await oc.waitForScreen((s) => !POPUP.test(s), WAIT);
  await oc.press('C-u', (s) => opencodeReady(s) && !/┃\s*\/\s*$/mu.test(s), WAIT);

  const MODELS = /Select model/iu;
  await tmux.typeText(oc.paneId, '/models');
  await oc.waitForScreen(/\/models/u, WAIT);
  await tmux.sendKeys(oc.paneId, 'Enter');
  await oc.waitForScreen(MODELS, WAIT);
  await shot('model-picker', { state: 'idle', dialog: 'menu', draft: false, note: '/models: the "Select model" dialog over the start screen' });
  await tmux.sendKeys(oc.paneId, 'Escape');
  await oc.waitForScreen((s) => !MODELS.test(s) && opencodeReady(s), WAIT);

  const PALETTE = /^\s*Commands\b/mu;
  await tmux.sendKeys(oc.paneId, 'C-p');
  await oc.waitForScreen(PALETTE, WAIT);
  await shot('command-palette', { state: 'idle', dialog: 'menu', draft: false, note: 'Ctrl+P: the command palette over the start screen' });
  await tmux.sendKeys(oc.paneId, 'Escape');
  await oc.waitForScreen((s) => !PALETTE.test(s) && opencodeReady(s), WAIT);
}
