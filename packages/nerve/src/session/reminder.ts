import type { AgentRecord } from '@collie/protocol';

/**
 * The one-time note for the orchestrator's next turn, listing agents that ended outside its
 * control (spec "Restarts"): it rides that turn's message and is not kept in Nerve's history.
 */
export function reminderFor(ended: readonly AgentRecord[], earlier: string | null): string {
  const lines = ended.map((r) => `- ${r.name} (${r.kind}, ${r.agent_id}): ${r.status}${r.reason ? ` (${r.reason})` : ''}`);
  const head = earlier ?? '<system-reminder>\nThese background agents ended outside your control; relaunch any whose work is still needed:';
  return `${head.replace(/\n<\/system-reminder>$/, '')}\n${lines.join('\n')}\n</system-reminder>`;
}
