import type { CaptureLabel } from '../../capture/driver';
import type { TmuxServer } from '../../tmux';
import type { AgentPane } from '../pane';

type Shot = (name: string, label: CaptureLabel) => Promise<void>;

/**
 * The menus a user opens in Codex, each kept as a `menu` over the idle composer, then closed with
 * one Esc: the `/model` picker, the `/permissions` picker, and the F2 warnings panel (an info
 * panel, not a menu: it reads idle with no dialog).
 */
export async function captureCodexMenus(tmux: TmuxServer, codex: AgentPane, shot: Shot, idle: (s: string) => boolean): Promise<void> {
  const WAIT = 30_000;
  const open = async (command: string, sign: RegExp) => {
    await tmux.typeText(codex.paneId, command);
    await codex.waitForScreen((s) => s.includes(command), WAIT);
    await tmux.sendKeys(codex.paneId, 'Enter');
    await codex.waitForScreen(sign, WAIT);
  };
  const close = async (sign: RegExp) => {
    await tmux.sendKeys(codex.paneId, 'Escape');
    await codex.waitForScreen((s) => !sign.test(s) && idle(s), WAIT);
  };
  const MODEL = /Select Model/iu;
  await open('/model', MODEL);
  await shot('model-picker', { state: 'idle', dialog: 'menu', draft: false, note: '/model: the model picker in the composer\'s place' });
  await close(MODEL);
  const PERMISSIONS = /Update Model Permissions|Select Approval Mode|Approval Mode|Permissions/u;
  await open('/permissions', PERMISSIONS);
  await codex.waitForScreen((s) => PERMISSIONS.test(s) && !/Loading permission profiles/u.test(s), WAIT);
  await shot('permissions-picker', { state: 'idle', dialog: 'menu', draft: false, note: '/permissions: the permission-mode picker' });
  await close(PERMISSIONS);
  const before = await codex.waitForScreen(/f2 to view/iu, WAIT);
  await tmux.sendKeys(codex.paneId, 'F2');
  await codex.waitForScreen((s) => s !== before && !/f2 to view/iu.test(s), WAIT);
  await shot('warnings-panel', { state: 'idle', dialog: null, draft: false, note: 'F2: the warnings panel (dismissable, the composer hidden): idle' });
  await tmux.sendKeys(codex.paneId, 'Escape');
  await codex.waitForScreen((s) => idle(s) && /f2 to view/iu.test(s), WAIT);
}
