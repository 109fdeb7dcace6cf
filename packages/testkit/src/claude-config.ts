import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Which permission mode the CLI starts in. */
export type PermissionsMode = 'default' | 'auto';

/**
 * The startup screens a config can leave on, to be seen and answered in the pane; each is
 * off (pre-answered) unless set here. Measured on Claude Code 2.1.334, in this order:
 * - `onboarding`: the theme picker, then "Security notes:" (Press Enter to continue);
 * - `trust`: "Quick safety check: Is this a project you created or one you trust?";
 * - `apiKey`: "Detected a custom API key in your environment … Do you want to use this API key?";
 * - `autoModeNudge`: "Make auto mode your default permission mode?" (only with `permissions: 'default'`).
 *
 * Onboarding runs a connectivity check against api.anthropic.com first whenever the key is not
 * approved yet, which fails offline and exits; so `onboarding` and `apiKey` cannot both be on.
 */
export interface ClaudeDialogs {
  onboarding?: boolean;
  trust?: boolean;
  apiKey?: boolean;
  autoModeNudge?: boolean;
}

/** What a config dir is prepared for. */
export interface ClaudeConfigOptions {
  /** The (real, symlink-free) directory the CLI starts in; its folder-trust prompt is pre-accepted. */
  cwd: string;
  /** The fake API key; the CLI asks once whether to use a custom key unless its tail is approved. */
  apiKey: string;
  permissions?: PermissionsMode;
  /** Startup screens to leave on; all off by default. */
  dialogs?: ClaudeDialogs;
  /** Permission rules allowed without a dialog, e.g. `Bash(collie walky:*)`. */
  allow?: readonly string[];
}

/**
 * Writes an isolated `CLAUDE_CONFIG_DIR` in which Claude Code 2.1.334 starts straight to its
 * input box, with no first-run screen, unless `dialogs` leaves some on. Each key answers a
 * screen seen in a pane:
 * - `hasCompletedOnboarding`: the theme picker and the security notes;
 * - `customApiKeyResponses.approved` (last 20 characters of the key): "use this API key?";
 * - `projects.<cwd>.hasTrustDialogAccepted`: "do you trust the files in this folder?";
 * - `hasSeenAutoDefaultNudge`: "Make auto mode your default permission mode?", shown at every
 *   start when settings pin `defaultMode` to anything but auto (verified December 2026);
 * - `settings.json` `permissions.defaultMode`: 2.1.334 defaults to auto mode, which would
 *   answer permission prompts itself; `default` brings back the dialogs people see.
 *
 * @example
 * await writeClaudeConfig(dir, { cwd: '/tmp/project', apiKey: 'sk-ant-test-…' });
 * await writeClaudeConfig(dir, { cwd, apiKey, dialogs: { trust: true, autoModeNudge: true } });
 */
export async function writeClaudeConfig(dir: string, opts: ClaudeConfigOptions): Promise<void> {
  const on = opts.dialogs ?? {};
  if (on.onboarding && on.apiKey) {
    throw new Error('claude config: onboarding and apiKey cannot both be on offline (onboarding then checks api.anthropic.com and exits)');
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const state = {
    hasCompletedOnboarding: !on.onboarding,
    hasSeenAutoDefaultNudge: !on.autoModeNudge,
    customApiKeyResponses: { approved: on.apiKey ? [] : [opts.apiKey.slice(-20)], rejected: [] },
    projects: { [opts.cwd]: { hasTrustDialogAccepted: !on.trust } },
  };
  const settings = { permissions: { defaultMode: opts.permissions ?? 'default', ...(opts.allow ? { allow: [...opts.allow] } : {}) } };
  await writeFile(join(dir, '.claude.json'), JSON.stringify(state, null, 2), { mode: 0o600 });
  await writeFile(join(dir, 'settings.json'), JSON.stringify(settings, null, 2), { mode: 0o600 });
}
