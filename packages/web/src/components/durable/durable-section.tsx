import type { AgentSummary } from '../../lib/durable/summary';
import { STATE_WORDS, agentShownName } from '../../lib/durable/words';

/** The dashboard's Durable agents section: one row per agent, the whole row its link, its counts in words at its right edge. */
export function DurableSection({ rows }: { readonly rows: readonly AgentSummary[] }) {
  if (rows.length === 0) return null;
  return (
    <section className="space durable-section" aria-label="Durable agents">
      <h2 className="section-title space-title">
        <span className="space-name">Durable agents</span>
      </h2>
      <ul className="rows">
        {rows.map(({ agent, open, waiting }) => (
          <li key={agent.name} className="row durable-row">
            <a className="row-link" href={`#/durable/${encodeURIComponent(agent.name)}`}>
              <span className="durable-lines">
                <span className="durable-line1">
                  <span className="durable-name">{agentShownName(agent.name)}</span> <span className="badge">Experimental</span>
                </span>
                <span className="durable-line2">
                  {agent.runtime ?? 'durable'}, {agent.machine === null ? (agent.local ? 'local' : 'remote') : agent.machine}
                </span>
              </span>
              <span className="durable-right">
                {agent.state === 'ready' ? (
                  <>
                    <span className="count">{open} open</span>
                    {waiting > 0 ? (
                      <>
                        {' · '}
                        <span className="count needs-you">{waiting} needs you</span>
                      </>
                    ) : null}
                  </>
                ) : (
                  <span className="durable-state">{STATE_WORDS[agent.state]}</span>
                )}
              </span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
