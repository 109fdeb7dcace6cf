import type { DurableAgent, DurableConversation } from '@collie/protocol';
import type { DurableState } from '@collie/protocol';

export interface AgentSummary {
  agent: DurableAgent;
  open: number;
  waiting: number;
}

/** Each agent with its open conversations and the ones that wait on you (an open question). */
export function summarize(d: DurableState): AgentSummary[] {
  const rows = new Map<string, AgentSummary>([...d.agents.values()].map((a) => [a.name, { agent: a, open: 0, waiting: 0 }]));
  for (const c of d.conversations.values()) {
    const r = rows.get(c.agent);
    if (!r) continue;
    r.open++;
    if (c.questions.length > 0) r.waiting++;
  }
  return [...rows.values()].sort((a, b) => a.agent.name.localeCompare(b.agent.name));
}

/** The conversation list's order: what waits on you, then the other open ones, newest first. */
export function ordered(cs: Iterable<DurableConversation>): DurableConversation[] {
  return [...cs].sort((a, b) => Number(b.questions.length > 0) - Number(a.questions.length > 0) || b.updatedAt - a.updatedAt);
}

/** The header's second line (the page's table "The header"). */
export function headerLine(c: DurableConversation): string | null {
  const p = c.working || c.questions.length > 0 ? c.progress : null;
  if (p?.kind === 'steps') {
    const i = p.steps.findIndex((s) => s.state === 'running');
    if (i >= 0) return `Step ${i + 1} of ${p.steps.length}: ${p.steps[i]!.label}`;
  }
  if (p?.kind === 'percent') return `${Math.round(p.percent)}%${p.label ? `: ${p.label}` : ''}`;
  return c.subtitle ?? c.workspace;
}
