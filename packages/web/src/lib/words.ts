import type { Dialog, Harness, PaneState } from '@collie/protocol';

/** The words a person reads for each state, next to its colour. */
export const STATE_WORDS: Readonly<Record<PaneState, string>> = {
  blocked: 'Blocked',
  done: 'Done',
  working: 'Working',
  idle: 'Idle',
  unknown: 'Unknown',
};

/** What kind of dialog holds a pane, as a row says it. */
export const DIALOG_WORDS: Readonly<Record<Dialog, string>> = {
  permission: 'Permission',
  select: 'Choice',
  multiselect: 'Multiple choice',
  wizard: 'Questions',
  review: 'Review',
  preview: 'Preview',
  plan: 'Plan approval',
  trust: 'Trust folder',
  menu: 'Menu open',
  setup: 'Setup',
};

/** Each agent program by the name its users know it by. */
export const HARNESS_WORDS: Readonly<Record<Harness, string>> = {
  claude: 'Claude Code',
  codex: 'Codex',
  opencode: 'OpenCode',
  gemini: 'Gemini CLI',
  pi: 'pi',
  omp: 'omp',
  aider: 'Aider',
  shell: 'Shell',
};
