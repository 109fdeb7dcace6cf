import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Which permission mode the CLI starts in. */
export type PermissionsMode = 'default' | 'auto';

/** What a config dir is prepared for. */
export interface ClaudeConfigOptions {
  /** The (real, symlink-free) directory the CLI starts in; its folder-trust prompt is pre-accepted. */
  cwd: string;
  /** The fake API key; the CLI asks once whether to use a custom key unless its tail is approved. */
  apiKey: string;
  permissions?: PermissionsMode;
  /** Permission rules allowed without a dialog, e.g. `Bash(collie walky:*)`. */
  allow?: readonly string[];
}

/**
 * Writes an isolated `CLAUDE_CONFIG_DIR` in which Claude Code 2.1.334 starts straight to its
 * input box, with no first-run screen. Each key answers a screen seen in a pane:
 * - `hasCompletedOnboarding`: the theme picker and the login walkthrough;
 * - `customApiKeyResponses.approved` (last 20 characters of the key): "use this API key?";
 * - `projects.<cwd>.hasTrustDialogAccepted`: "do you trust the files in this folder?";
 * - `hasSeenAutoDefaultNudge`: "Make auto mode your default permission mode?", shown at every
 *   start when settings pin `defaultMode` to anything but auto (verified December 2026);
 * - `settings.json` `permissions.defaultMode`: 2.1.334 defaults to auto mode, which would
 *   answer permission prompts itself; `default` brings back the dialogs people see.
 *
 * @example
 * await writeClaudeConfig(dir, { cwd: '/tmp/project', apiKey: 'sk-ant-test-…' });
 */
export async function writeClaudeConfig(dir: string, opts: ClaudeConfigOptions): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const state = {
    hasCompletedOnboarding: true,
    hasSeenAutoDefaultNudge: true,
    customApiKeyResponses: { approved: [opts.apiKey.slice(-20)], rejected: [] },
    projects: { [opts.cwd]: { hasTrustDialogAccepted: true } },
  };
  const settings = { permissions: { defaultMode: opts.permissions ?? 'default', ...(opts.allow ? { allow: [...opts.allow] } : {}) } };
  await writeFile(join(dir, '.claude.json'), JSON.stringify(state, null, 2), { mode: 0o600 });
  await writeFile(join(dir, 'settings.json'), JSON.stringify(settings, null, 2), { mode: 0o600 });
}
