import type { CaptureLabel } from '../../capture/driver';
import type { TmuxServer } from '../../tmux';
import type { AgentPane } from '../pane';

type Shot = (name: string, label: CaptureLabel) => Promise<void>;
const WAIT = 60_000;

/**
 * The menus a user opens in Gemini CLI, each kept as a `menu` over the idle input box and closed
 * with one Esc: the slash-command popup under the input box, and the `/model` dialog.
 */
export async function captureGeminiMenus(tmux: TmuxServer, gemini: AgentPane, shot: Shot, idle: (s: string) => boolean): Promise<void> {
  await tmux.typeText(gemini.paneId, '/');
  await gemini.waitForScreen(/\bmodel\b/u, WAIT);
  const POPUP = /\bmemory\b|\bextensions\b|\bcompress\b/u;
  await gemini.waitForScreen(POPUP, WAIT);
  await shot('slash-popup', { state: 'idle', dialog: 'menu', draft: false, note: 'the slash-command popup under the input box: a menu, its "/" no draft' });
  await tmux.sendKeys(gemini.paneId, 'BSpace');
  await gemini.waitForScreen((s) => !POPUP.test(s) && idle(s), WAIT);
  await tmux.typeText(gemini.paneId, '/model');
  await gemini.waitForScreen(/> \/model/u, WAIT);
  await tmux.sendKeys(gemini.paneId, 'Enter');
  const PICKER = /Select Model/iu;
  await gemini.waitForScreen(PICKER, WAIT);
  await shot('model-picker', { state: 'idle', dialog: 'menu', draft: false, note: '/model: the "Select Model" dialog in the input box\'s place' });
  await tmux.sendKeys(gemini.paneId, 'Escape');
  await gemini.waitForScreen((s) => !PICKER.test(s) && idle(s), WAIT);
}
