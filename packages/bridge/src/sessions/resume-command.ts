import type { SessionAgent } from '@collie/protocol';

/**
 * Each agent's own flags to continue a session, as its CLI reads them (checked against the
 * installed programs): Claude Code `--resume <id>`, Codex's `resume <id>` subcommand, Gemini
 * CLI `--resume <uuid>` (it looks among the folder's sessions, so the window opens there),
 * OpenCode `--session <id>`, pi `--session <file>` (a path or a partial id).
 */
export function resumeArgs(agent: SessionAgent, id: string, path: string): string[] {
  switch (agent) {
    case 'claude':
      return ['--resume', id];
    case 'codex':
      return ['resume', id];
    case 'gemini':
      return ['--resume', id];
    case 'opencode':
      return ['--session', id];
    case 'pi':
      return ['--session', path];
  }
}
