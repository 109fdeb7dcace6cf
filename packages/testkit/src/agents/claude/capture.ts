import { startClaude } from '../../claude';
import { startMessagesApi } from '../../messages-api';
import type { CaptureDriver } from '../../capture/driver';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Claude Code's capture driver: its startup screens (each left on in a fresh config) and the pickers a command opens. */
export const claudeCaptureDriver: CaptureDriver = {
  agent: 'claude',
  async capture({ tmux, keep }) {
    await using api = await startMessagesApi();
    {
      await using c = await startClaude(tmux, api, { dialogs: { onboarding: true }, ready: /Choose the text style/ });
      await keep(c.paneId, 'onboarding-theme', { state: 'blocked', dialog: 'setup', draft: false, note: 'first onboarding step: the theme picker' });
      await c.press('Enter', /Security notes:/);
      await keep(c.paneId, 'onboarding-security', { state: 'blocked', dialog: 'setup', draft: false, options: ['Continue'], note: 'second onboarding step: Security notes' });
    }
    {
      await using c = await startClaude(tmux, api, { dialogs: { apiKey: true }, ready: /Do you want to use this API key\?/ });
      await keep(c.paneId, 'api-key', { state: 'blocked', dialog: 'setup', draft: false, options: ['Yes', 'No (recommended)'], note: 'an unapproved ANTHROPIC_API_KEY' });
    }
    await using c = await startClaude(tmux, api, { dialogs: { autoModeNudge: true }, ready: /Make auto mode your default permission mode\?/ });
    await keep(c.paneId, 'auto-nudge', { state: 'blocked', dialog: 'setup', draft: false, options: ['Yes, set auto mode as my default permission mode', 'No, keep manual mode'], note: 'settings pin defaultMode' });
    await c.press(['Down'], /❯ No, keep manual mode/);
    await c.press('Enter', /manual mode on/);
    const version = /Claude Code v(\S+)/.exec(await c.capture())?.[1] ?? 'unknown';
    for (const [cmd, name, sign] of [['/model', 'model-picker', /Select model/], ['/effort', 'effort-picker', /Effort/]] as const) {
      await c.submit(cmd);
      await c.waitForScreen(sign);
      await sleep(300);
      await keep(c.paneId, name, { state: 'idle', dialog: 'menu', draft: false, note: `${cmd} opened by the user` });
      await c.press('Escape', (s) => !sign.test(s));
    }
    return { version };
  },
};
