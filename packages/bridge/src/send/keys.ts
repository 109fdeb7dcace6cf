import type { Harness, KeyName } from '@collie/protocol';

/**
 * The key that ends a running turn, per agent: the TUIs built on Ink and Bubble Tea take
 * Escape (Claude Code, Codex, Gemini CLI, OpenCode, pi, omp: "esc to interrupt" on their
 * screens); aider and a plain shell take Ctrl-C.
 */
export const STOP_KEY: Record<Harness, string> = {
  claude: 'Escape',
  codex: 'Escape',
  gemini: 'Escape',
  opencode: 'Escape',
  pi: 'Escape',
  omp: 'Escape',
  aider: 'C-c',
  shell: 'C-c',
};

/** The tmux key names for the phone's keys; every name is a tmux key name but `Stop`. */
export function tmuxKeys(keys: readonly KeyName[], harness: Harness): string[] {
  return keys.map((k) => (k === 'Stop' ? STOP_KEY[harness] : k));
}
