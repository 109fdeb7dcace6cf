import type { Pane } from '@collie/protocol';
import { useMaySend } from '../hooks/use-client';
import type { ReactNode } from 'react';
import { HARNESS_WORDS } from '../lib/words';
import { CopyButton } from './copy-button';
import { Elapsed } from './elapsed';
import { PaneFlags } from './pane-flags';
import { PaneLabel } from './pane-label';
import { StatePill } from './state-pill';
import { StopButton } from './stop-button';
import { UsageFrom, UsageLine } from './usage-line';

/**
 * The pane's title line: its label (where focus lands on arrival), its state, and Stop while
 * the agent works. The card comes right under it; the rest is in `PaneFacts`.
 */
export function PaneTitle({ pane }: { readonly pane: Pane }) {
  // Stop presses a key in the pane: a watch-only device is not offered it.
  const maySend = useMaySend();
  return (
    <div className="pane-head">
      <div className="pane-head-row">
        <h1 className="pane-label" tabIndex={-1} id="pane-title">
          <PaneLabel pane={pane} />
        </h1>
        <StatePill state={pane.state} harness={pane.harness} />
      </div>
      {maySend ? <StopButton paneId={pane.id} working={pane.state === 'working'} /> : null}
    </div>
  );
}

/** What a pane is and where: agent, place and how long, and its walky address in a details menu. */
export function PaneFacts({ pane, menu }: { readonly pane: Pane; readonly menu?: ReactNode }) {
  return (
    <div className="pane-facts">
      <p className="pane-meta">
        {HARNESS_WORDS[pane.harness]} · {pane.member?.name ?? pane.machine} · {pane.sessionName} {pane.windowIndex}:{pane.windowName}
        {' · for '}
        <Elapsed since={pane.since} className="pane-elapsed" />
      </p>
      <UsageLine pane={pane} />
      {/* The card already says which kind of ask this is: only the draft flag is news here. */}
      <PaneFlags pane={pane.card ? { ...pane, dialog: null } : pane} />
      <details className="pane-details">
        <summary>Details</summary>
        <p className="pane-address">
          <code className="address">{pane.address}</code>
          <CopyButton text={pane.address} label="Copy the pane's address" />
        </p>
        <p className="pane-where">{pane.cwd}</p>
        <UsageFrom pane={pane} />
        {menu}
      </details>
    </div>
  );
}
