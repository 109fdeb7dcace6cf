import type { AgentRecord } from '@collie/protocol';
import { dockLine } from '../../lib/nerve/roster';

/** One line above the composer while the session has agents: counts and the latest activity. Opens the panel. */
export function AgentDock({ agents, now, quietAfterMinutes, open }: { readonly agents: readonly AgentRecord[]; readonly now: number; readonly quietAfterMinutes: number; readonly open: () => void }) {
  const line = dockLine(agents, now, quietAfterMinutes);
  if (!line) return null;
  return (
    <button type="button" className="agent-dock" onClick={open} aria-label={`Agents: ${line.counts}. Open the Agents panel`}>
      <span className="agent-dock-counts">{line.counts}</span>
      {line.latest ? <span className="agent-dock-latest">{line.latest}</span> : null}
    </button>
  );
}
