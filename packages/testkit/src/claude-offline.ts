import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { claudeLauncher, FAKE_API_KEY } from './claude';
import { writeClaudeConfig } from './claude-config';
import type { MessagesApi } from './messages-api';

/**
 * One Claude Code config dir (`cfg`) trusted in each of `folders` (as one user's is), a home
 * inside it, and the bridge's `claude offline` launcher in `configDir`/launchers.json running it
 * against `api`. Returns the env for Claude panes a test starts itself with that config.
 *
 * @example
 * const env = await claudeOffline(cfg.path, config.path, api, [shop, docs]);
 * await using claude = await startClaude(tmux, api, { cwd: shop, env });
 */
export async function claudeOffline(cfg: string, configDir: string, api: Pick<MessagesApi, 'url'>, folders: readonly [string, ...string[]]): Promise<Record<string, string>> {
  const [first, ...others] = folders;
  await mkdir(join(cfg, 'home'), { recursive: true, mode: 0o700 });
  await writeClaudeConfig(cfg, { cwd: first, apiKey: FAKE_API_KEY });
  if (others.length > 0) {
    const file = join(cfg, '.claude.json');
    const state = JSON.parse(await readFile(file, 'utf8')) as { projects: Record<string, unknown> };
    for (const folder of others) state.projects[folder] = state.projects[first];
    await writeFile(file, JSON.stringify(state));
  }
  await mkdir(configDir, { recursive: true, mode: 0o700 });
  await writeFile(join(configDir, 'launchers.json'), JSON.stringify({ launchers: [{ name: 'claude offline', command: claudeLauncher(api, cfg) }] }));
  return { CLAUDE_CONFIG_DIR: cfg, HOME: join(cfg, 'home') };
}
