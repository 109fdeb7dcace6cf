import type { Pane } from '@collie/protocol';
import { useMaySend } from '../hooks/use-client';
import { type ReactNode, useId, useState } from 'react';
import { HARNESS_WORDS } from '../lib/words';
import { CopyButton } from './copy-button';
import { Elapsed } from './elapsed';
import { PaneFlags } from './pane-flags';
import { PaneLabel } from './pane-label';
import { StatePill } from './state-pill';
import { StopButton } from './stop-button';
import { UsageFrom, UsageLine } from './usage-line';

/**
 * The pane's title line, kept to one short row so the conversation has the screen: its label
 * (where focus lands on arrival), its state, Stop while the agent works, and the Menu button
 * that opens what the person needs less often (`menu`: what and where the pane is, Changes,
 * Files, Rename, Close) right under it. The card comes under the header; the flags (a draft in
 * the box, an unread screen) stay in sight.
 */
export function PaneTitle({ pane, menu }: { readonly pane: Pane; readonly menu: ReactNode }) {
  // Stop presses a key in the pane: a watch-only device is not offered it.
  const maySend = useMaySend();
  const [open, setOpen] = useState(false);
  const panel = useId();
  return (
    <div className="pane-head">
      <div className="pane-head-row">
        <h1 className="pane-label" tabIndex={-1} id="pane-title">
          <PaneLabel pane={pane} />
        </h1>
        <StatePill state={pane.state} harness={pane.harness} />
        {maySend ? <StopButton paneId={pane.id} working={pane.state === 'working'} /> : null}
        <button type="button" className="pane-menu-button" aria-expanded={open} aria-controls={panel} onClick={() => setOpen(!open)}>
          Menu
        </button>
        <UsageLine pane={pane} />
      </div>
      {/* The card already says which kind of ask this is: only the draft flag is news here. */}
      <PaneFlags pane={pane.card ? { ...pane, dialog: null } : pane} />
      <div className="pane-menu" id={panel} hidden={!open}>
        {open ? menu : null}
      </div>
    </div>
  );
}

/** What a pane is and where: agent, place and how long, its walky address, its folder, and `menu`'s extra items. */
export function PaneFacts({ pane, menu }: { readonly pane: Pane; readonly menu?: ReactNode }) {
  return (
    <div className="pane-facts">
      <p className="pane-meta">
        {HARNESS_WORDS[pane.harness]} · {pane.member?.name ?? pane.machine} · {pane.sessionName} {pane.windowIndex}:{pane.windowName}
        {' · for '}
        <Elapsed since={pane.since} className="pane-elapsed" />
      </p>
      <p className="pane-address">
        <code className="address">{pane.address}</code>
        <CopyButton text={pane.address} label="Copy the pane's address" />
      </p>
      <p className="pane-where">{pane.cwd}</p>
      <UsageFrom pane={pane} />
      {menu}
    </div>
  );
}
