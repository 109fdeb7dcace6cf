import { useState } from 'react';

export interface SplitStopProps {
  readonly running: boolean;
  readonly hasText: boolean;
  /** The red button: the turn only. */
  readonly stopTurn: () => void;
  readonly stopAndSend: () => void;
  readonly stopAll: () => void;
  /** Offered after `not_stopped` or `needs_confirmation`. */
  readonly force: (() => void) | null;
}

/**
 * The split Stop: the red button stops the turn; its caret offers "Stop turn and send" and
 * "Stop all agents…" (and "Force stop…" when a stop could not spare the agents).
 */
export function SplitStop({ running, hasText, stopTurn, stopAndSend, stopAll, force }: SplitStopProps) {
  const [menu, setMenu] = useState(false);
  const [sure, setSure] = useState<'all' | 'force' | null>(null);
  const pick = (what: () => void) => {
    setMenu(false);
    setSure(null);
    what();
  };
  return (
    <div className="split-stop">
      <button type="button" className="button split-stop-main" aria-disabled={!running} onClick={() => running && stopTurn()}>
        Stop
      </button>
      <button type="button" className="button split-stop-caret" aria-label="More ways to stop" aria-expanded={menu} onClick={() => setMenu(!menu)}>
        ▾
      </button>
      {menu ? (
        <div className="split-stop-menu" role="menu">
          <button type="button" role="menuitem" className="button" aria-disabled={!running || !hasText} onClick={() => running && hasText && pick(stopAndSend)}>
            Stop turn and send
          </button>
          <button type="button" role="menuitem" className={`button${sure === 'all' ? ' agent-stop-armed' : ''}`} onClick={() => (sure === 'all' ? pick(stopAll) : setSure('all'))}>
            {sure === 'all' ? 'Stop every agent now' : 'Stop all agents…'}
          </button>
          {force ? (
            <button type="button" role="menuitem" className={`button${sure === 'force' ? ' agent-stop-armed' : ''}`} onClick={() => (sure === 'force' ? pick(force) : setSure('force'))}>
              {sure === 'force' ? 'Force stop: end everything' : 'Force stop…'}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
