import { join } from 'node:path';

export const HARNESSES = ['claude', 'codex', 'opencode', 'pi', 'gemini'] as const;
export type HarnessName = (typeof HARNESSES)[number];

/** One file the skill goes into. `whole`: a file of its own (Claude's skill), else a marker block. */
export interface Target {
  harness: HarnessName;
  configDir: string;
  file: string;
  whole: boolean;
  /** Read instead of `file` when it exists (codex and pi): the block would be ignored. */
  override?: string;
}

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Each harness's own layout (as of December 2026): where it keeps its config, and which file
 * it reads its user-wide instructions from. Claude Code gets a skill file of its own in each
 * profile folder (`~/.claude`, `~/.claude-<profile>`, `$CLAUDE_CONFIG_DIR`).
 */
export function targetsOf(h: HarnessName, home: string, env: Env, homeEntries: readonly string[]): Target[] {
  switch (h) {
    case 'claude': {
      const dirs = new Set(homeEntries.filter((n) => /^\.claude(?:-[A-Za-z0-9_.-]+)?$/.test(n)).map((n) => join(home, n)));
      if (env.CLAUDE_CONFIG_DIR) dirs.add(env.CLAUDE_CONFIG_DIR);
      if (dirs.size === 0) dirs.add(join(home, '.claude'));
      return [...dirs].sort().map((d) => ({ harness: h, configDir: d, file: join(d, 'skills', 'walky-talky', 'SKILL.md'), whole: true }));
    }
    case 'codex': {
      const d = env.CODEX_HOME || join(home, '.codex');
      return [{ harness: h, configDir: d, file: join(d, 'AGENTS.md'), whole: false, override: join(d, 'AGENTS.override.md') }];
    }
    case 'opencode': {
      const d = join(env.XDG_CONFIG_HOME || join(home, '.config'), 'opencode');
      return [{ harness: h, configDir: d, file: join(d, 'AGENTS.md'), whole: false }];
    }
    case 'pi': {
      const d = join(home, '.pi', 'agent');
      return [{ harness: h, configDir: join(home, '.pi'), file: join(d, 'AGENTS.md'), whole: false, override: join(d, 'AGENTS.override.md') }];
    }
    case 'gemini': {
      const d = join(home, '.gemini');
      return [{ harness: h, configDir: d, file: join(d, 'GEMINI.md'), whole: false }];
    }
  }
}
