import type { Pane } from '@collie/protocol';

/** Who a broadcast reaches on this bridge's machine: its agent panes; shells are skipped. */
export function broadcastTargets(panes: Iterable<Pane>): { agents: Pane[]; shells: Pane[] } {
  const all = [...panes].sort((a, b) => a.address.localeCompare(b.address, 'en', { numeric: true }));
  return { agents: all.filter((p) => p.harness !== 'shell'), shells: all.filter((p) => p.harness === 'shell') };
}

/**
 * Who "Send to" reaches: `all` (every machine the lead can reach), `local` (this machine) or a
 * member's name. A member the lead cannot reach is left out, panes and machine alike.
 */
export function broadcastChoice(panes: Iterable<Pane>, member: string): { agents: Pane[]; shells: Pane[]; machines: number } {
  const reached = [...panes].filter((p) => (member === 'all' ? !p.member || p.member.reachable : member === 'local' ? !p.member : p.member?.name === member && p.member.reachable));
  const { agents, shells } = broadcastTargets(reached);
  const machines = new Set(agents.map((p) => p.member?.name ?? '')).size;
  return { agents, shells, machines: Math.max(machines, 1) };
}

/** "Message 5 agents on 2 machines?" */
export function confirmWords(agents: number, machines: number): string {
  const a = agents === 1 ? '1 agent' : `${agents} agents`;
  const m = machines === 1 ? '1 machine' : `${machines} machines`;
  return `Message ${a} on ${m}?`;
}

/** "Not sent on this machine": the refusal counts, most first. */
export function refusalLines(counts: Readonly<Record<string, number>>): string[] {
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([reason, n]) => `${reason}: ${n}`);
}
