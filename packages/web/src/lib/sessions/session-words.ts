import type { SessionSummary } from '@collie/protocol';

export const AGENT_NAMES: Record<string, string> = { claude: 'Claude Code', codex: 'Codex', gemini: 'Gemini CLI', opencode: 'OpenCode', pi: 'pi' };

/** "3 min ago", "2 h ago", "5 d ago". */
export function ago(ms: number, now: number): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} d ago`;
}

export function sizeWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The row's second line: agent, folder label, the crew machine that holds it (on a lead), when, size. */
export function sessionMeta(s: SessionSummary, now: number): string {
  return [AGENT_NAMES[s.agent] ?? s.agent, s.label ?? s.folder ?? 'folder unknown', ...(s.machine ? [`on ${s.machine}`] : []), ago(s.updated, now), sizeWords(s.size)].join(' · ');
}
