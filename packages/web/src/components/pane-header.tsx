import type { Pane } from '@collie/protocol';
import { HARNESS_WORDS } from '../lib/words';
import { CopyButton } from './copy-button';
import { Elapsed } from './elapsed';
import { PaneFlags } from './pane-flags';
import { StatePill } from './state-pill';

/** What a pane is and where: its label, agent, state and how long, and its walky address. */
export function PaneHeader({ pane }: { readonly pane: Pane }) {
  return (
    <div className="pane-head">
      <div className="pane-head-row">
        <h1 className="pane-label">{pane.label}</h1>
        <StatePill state={pane.state} />
      </div>
      <p className="pane-meta">
        {HARNESS_WORDS[pane.harness]} · {pane.machine} · {pane.sessionName} {pane.windowIndex}:{pane.windowName}
        {' · for '}
        <Elapsed since={pane.since} className="pane-elapsed" />
      </p>
      <PaneFlags pane={pane} />
      <p className="pane-address">
        <code className="address">{pane.address}</code>
        <CopyButton text={pane.address} label="Copy the pane's address" />
      </p>
    </div>
  );
}
